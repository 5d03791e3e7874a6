// SPDX-License-Identifier: Apache-2.0
// The detail dialog of one case, with Nsight Compute profiling beside the open results.
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "app/main_window.h"
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
  return {findEngine(m_options.engineOverride).program, dir};
}

CaseDetailDialog* MainWindow::caseDialog(const std::string& kernel, const Shape& shape) {
  for (const auto& c : m_model->document().cases)
    if (c.kernel == kernel && sizeMatches(c, shape)) {
      auto* dialog = new CaseDetailDialog(c, this);
      dialog->enableProfiling(profileContext());
      return dialog;
    }
  return nullptr;
}

}  // namespace kwb::gui
