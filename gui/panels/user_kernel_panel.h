#pragma once
// The left panel's "Your kernel" box (docs/BRING_YOUR_OWN.md, "In the GUI"): the watched .cu,
// what the last save did, the kernel's result next to the previous run's with the change in %,
// and the compile errors, each line clickable to open the editor there.
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QWidget>

#include "model/compile_diagnostics.h"
#include "model/kernel_change.h"

namespace kwb::gui {

class UserKernelPanel : public QWidget {
  Q_OBJECT
 public:
  explicit UserKernelPanel(QWidget* parent = nullptr);
  void setSource(const QString& path, const QString& caseId);
  void setStatus(const QString& text, bool error = false);
  // The kernel's cases of the last good run; clears the compile errors.
  void setChanges(const QList<KernelChange>& changes);
  // A failed compile: its diagnostics (the results shown stay those of the last good run).
  void setDiagnostics(const QList<CompileDiagnostic>& diagnostics);

  QString statusText() const { return m_status->text(); }
  QString changesText() const { return m_changes->text(); }
  QListWidget* diagnostics() const { return m_diagnostics; }

 signals:
  // The user clicked a compile error (line > 0) or "Open in editor" (line 0).
  void openRequested(const QString& file, int line);

 private:
  QString m_path;
  QLabel* m_file;
  QLabel* m_status;
  QLabel* m_changes;
  QListWidget* m_diagnostics;
  QPushButton* m_open;
};

}  // namespace kwb::gui
