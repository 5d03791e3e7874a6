// SPDX-License-Identifier: Apache-2.0
// The detail dialog of one case, with Nsight Compute profiling beside the open results.
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "app/main_window.h"
#include "kwb/error.h"
#include "model/case_size.h"
#include "engine/app_paths.h"
#include "panels/case_detail_dialog.h"

namespace kwb::gui {

ProfileContext MainWindow::profileContext() const {
  const QFileInfo source(m_model->source());
  QString dir = source.isFile() ? source.absolutePath() : QString();
  if (dir.isEmpty()) {
    dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/profiles";
    QDir().mkpath(dir);
  }
  return {findEngine(m_options.engineOverride).program, dir, m_model->document().gitRevision};
}

CaseDetailDialog* MainWindow::caseDialog(const std::string& kernel, const CaseSize& size) {
  for (const auto& c : m_model->document().cases)
    if (c.kernel == kernel && c.size == size) {
      auto* dialog = new CaseDetailDialog(c, m_model->document(), this);
      dialog->enableProfiling(profileContext());
      return dialog;
    }
  return nullptr;
}

CaseDetailDialog* MainWindow::caseDialog(const std::string& kernel, const QString& size) {
  // The text is read as a size of the family of the kernel's cases (its declaration in the
  // document): "512", "256x384x640", "2^20 f32".
  const RunDocument& doc = m_model->document();
  for (const auto& c : doc.cases)
    if (c.kernel == kernel) {
      const FamilyInfo* family = doc.family(c.problem());
      if (!family)
        throw InputError("the document does not declare the family '" + c.problem() + "'");
      return caseDialog(kernel, parseSize(*family, size.trimmed().toStdString()));
    }
  return nullptr;
}

}  // namespace kwb::gui
