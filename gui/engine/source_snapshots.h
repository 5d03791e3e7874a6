// SPDX-License-Identifier: Apache-2.0
#pragma once
// Copies of a user kernel's .cu as each run compiled it (docs/BRING_YOUR_OWN.md, "In the GUI"),
// so `kwb ab` can time this save against the last good one after the file has changed again.
// The copy taken when a run starts is pending; when the run ends well it becomes the last good
// version and the one before it the previous version (A of `kwb ab`, the last good being B).
// Each copy is named <stem>_v<N>.cu: the engine keys a user kernel by its file stem, and two
// sources of one stem in one `kwb ab` would run as one kernel; so each copy also records its
// entry function (its `// kwb: entry=`, else the original stem), for `kwb ab --entry`. The copies
// live in a private temporary directory removed with this object; a copy no version names any
// more is removed at once.
#include <QString>
#include <QTemporaryDir>

namespace kwb::gui {

struct SourceCopy {
  QString path;   // <temporary directory>/<stem>_v<N>.cu; empty: no copy
  QString entry;  // the kernel's entry function in this version
};

class SourceSnapshots {
 public:
  SourceSnapshots();
  SourceSnapshots(const SourceSnapshots&) = delete;
  SourceSnapshots& operator=(const SourceSnapshots&) = delete;

  // Copies `path` as it is now into the pending version (replacing a pending one). Returns an
  // empty string, or a sentence saying why there is no copy (the pending version is then none).
  QString take(const QString& path);
  // The pending version's run ended well: it is the last good version now, and the last good
  // one becomes the previous one.
  void accept();
  // The pending version did not compile or run: dropped, the good versions stay.
  void discard();
  // Another file: every version is forgotten.
  void clear();

  const SourceCopy& pending() const { return m_pending; }
  const SourceCopy& lastGood() const { return m_lastGood; }
  const SourceCopy& previousGood() const { return m_previousGood; }

 private:
  static void remove(SourceCopy& copy);

  QTemporaryDir m_dir;
  int m_taken = 0;
  SourceCopy m_pending, m_lastGood, m_previousGood;
};

}  // namespace kwb::gui
