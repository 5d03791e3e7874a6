// SPDX-License-Identifier: Apache-2.0
#pragma once
// The left panel's "Your kernel" box (docs/BRING_YOUR_OWN.md, "In the GUI"): the watched .cu,
// what the last save did, the kernel's result in the last good run, this save against the last
// timed interleaved by `kwb ab` (B/A, its 95% CI and verdict per size), and the compile errors,
// each line clickable to open the editor there.
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QWidget>

#include "kwb/ab_report.h"
#include "model/compile_diagnostics.h"
#include "model/kernel_change.h"

namespace kwb::gui {

class UserKernelPanel : public QWidget {
  Q_OBJECT
 public:
  // The A/B box's first words, whatever it says after them.
  static constexpr const char* kAbHeader = "This save vs the last, timed interleaved (kwb ab)";

  explicit UserKernelPanel(QWidget* parent = nullptr);
  void setSource(const QString& path, const QString& caseId);
  void setStatus(const QString& text, bool error = false);
  // The kernel's cases of the last good run (GFLOP/s, no comparison); clears the compile errors.
  void setChanges(const QList<KernelChange>& changes);
  // A failed compile: its diagnostics (the results shown stay those of the last good run).
  void setDiagnostics(const QList<CompileDiagnostic>& diagnostics);

  // The A/B box: kAbHeader and `text` ("timing both versions…", "stopped: saved again").
  void setAbNote(const QString& text, bool error = false);
  // kwb ab's decision: B/A, its 95% CI and the verdict per size.
  void setAbReport(const AbReport& report);
  // No decision: why (the engine's message, or why kwb ab cannot run), and the change between
  // the two separate runs, labelled as such.
  void setAbFailed(const QString& why, const QList<KernelChange>& separate);

  QString statusText() const { return m_status->text(); }
  QString changesText() const { return m_changes->text(); }
  QString abText() const { return m_ab->text(); }
  QListWidget* diagnostics() const { return m_diagnostics; }

 signals:
  // The user clicked a compile error (line > 0) or "Open in editor" (line 0).
  void openRequested(const QString& file, int line);

 private:
  QString m_path;
  QLabel* m_file;
  QLabel* m_status;
  QLabel* m_changes;
  QLabel* m_ab;
  QListWidget* m_diagnostics;
  QPushButton* m_open;
};

}  // namespace kwb::gui
