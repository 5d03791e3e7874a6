// SPDX-License-Identifier: Apache-2.0
#include "engine/user_kernel_watcher.h"

#include <QFileInfo>

namespace kwb::gui {

UserKernelWatcher::UserKernelWatcher(QObject* parent) : QObject(parent) {
  m_settle.setSingleShot(true);
  m_settle.setInterval(100);
  connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &UserKernelWatcher::onChanged);
  connect(&m_settle, &QTimer::timeout, this, [this] {
    if (QFileInfo::exists(m_path)) emit saved(m_path);
  });
}

bool UserKernelWatcher::setSource(const QString& path) {
  if (!m_watcher.files().isEmpty()) m_watcher.removePaths(m_watcher.files());
  m_path = QFileInfo(path).absoluteFilePath();
  return m_watcher.addPath(m_path);
}

QString UserKernelWatcher::caseId(const QString& path) {
  return "user." + QFileInfo(path).completeBaseName();
}

void UserKernelWatcher::onChanged() {
  // An editor that writes a new file and renames it over the old one drops the watch: re-add.
  if (!m_watcher.files().contains(m_path) && QFileInfo::exists(m_path)) m_watcher.addPath(m_path);
  m_settle.start();
}

}  // namespace kwb::gui
