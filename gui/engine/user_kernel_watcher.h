// SPDX-License-Identifier: Apache-2.0
#pragma once
// Hot reload of a user kernel (docs/BRING_YOUR_OWN.md): watches one .cu file and says when it
// was saved, once per save, so the window can re-run the selected shapes through the engine
// (`kwb run --source FILE --stream`). Editors that save by replacing the file are followed.
#include <QFileSystemWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

namespace kwb::gui {

class UserKernelWatcher : public QObject {
  Q_OBJECT
 public:
  explicit UserKernelWatcher(QObject* parent = nullptr);
  // Watches `path` (replacing any earlier file); false when it cannot be watched.
  bool setSource(const QString& path);
  QString source() const { return m_path; }
  // The case id the engine gives the file: user.<file stem>.
  static QString caseId(const QString& path);

 signals:
  void saved(const QString& path);

 private:
  void onChanged();

  QFileSystemWatcher m_watcher;
  QTimer m_settle;  // one signal for the several change notices of one save
  QString m_path;
};

}  // namespace kwb::gui
