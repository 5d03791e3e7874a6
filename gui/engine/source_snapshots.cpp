// SPDX-License-Identifier: Apache-2.0
#include "engine/source_snapshots.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <exception>

#include "kwb/user_kernel_spec.h"

namespace kwb::gui {
namespace {

// The entry the engine compiles: the header's, else the file stem (as kwb's applyDefaults).
QString entryOf(const QByteArray& text, const QString& path) {
  try {
    const UserLaunchSpec header = parseHeader(text.toStdString(), path.toStdString());
    if (header.entry) return QString::fromStdString(*header.entry);
  } catch (const std::exception&) {  // a bad header: the run that compiled it says so
  }
  return QFileInfo(path).completeBaseName();
}

}  // namespace

SourceSnapshots::SourceSnapshots() : m_dir(QDir::tempPath() + "/kwb-gui-sources-XXXXXX") {}

QString SourceSnapshots::take(const QString& path) {
  remove(m_pending);
  if (!m_dir.isValid())
    return QString("No copy of %1 was kept: the temporary folder could not be made (%2).")
        .arg(path, m_dir.errorString());
  QFile in(path);
  if (!in.open(QIODevice::ReadOnly))
    return QString("No copy of %1 was kept: %2.").arg(path, in.errorString());
  const QByteArray text = in.readAll();
  const QFileInfo info(path);
  const QString copy = m_dir.filePath(
      QString("%1_v%2.%3").arg(info.completeBaseName()).arg(++m_taken).arg(info.suffix()));
  QFile out(copy);
  if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(text) != text.size() ||
      !out.flush())
    return QString("No copy of %1 was kept: %2.").arg(path, out.errorString());
  m_pending = {copy, entryOf(text, path)};
  return {};
}

void SourceSnapshots::accept() {
  remove(m_previousGood);
  m_previousGood = m_lastGood;
  m_lastGood = m_pending;
  m_pending = {};
}

void SourceSnapshots::discard() { remove(m_pending); }

void SourceSnapshots::clear() {
  remove(m_pending);
  remove(m_lastGood);
  remove(m_previousGood);
}

void SourceSnapshots::remove(SourceCopy& copy) {
  if (!copy.path.isEmpty()) QFile::remove(copy.path);
  copy = {};
}

}  // namespace kwb::gui
