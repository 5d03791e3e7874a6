// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QObject>
#include <QString>
#include <optional>

#include "kwb/results.h"
#include "model/kernel_lookup.h"

namespace kwb::gui {

// The open results (and an optional baseline) every page reads; one signal per change kind.
class ResultsModel : public QObject {
  Q_OBJECT
 public:
  explicit ResultsModel(QObject* parent = nullptr);

  // The open results: the live run's document while one is followed, else the model's own.
  const RunDocument& document() const { return m_liveDoc ? *m_liveDoc : m_doc; }
  QString source() const { return m_source; }
  bool isLive() const { return m_live; }
  const std::optional<RunDocument>& baseline() const { return m_baseline; }
  QString baselineSource() const { return m_baselineSource; }
  // Kernels of the engine when known, plus any the document holds.
  const KernelLookup& catalog() const { return m_catalog; }

  // Throws kwb::InputError naming the file and the problem.
  void open(const QString& path);
  void openBaseline(const QString& path);
  // A baseline held in memory (a user kernel's previous run); `label` names it on the pages.
  void setBaselineDocument(const RunDocument& doc, const QString& label);
  void clearBaseline();
  // More runs to compare, drawn over this one and the baseline (Scaling, Progression).
  struct Overlay {
    QString source;
    RunDocument doc;
  };
  const QList<Overlay>& overlays() const { return m_overlays; }
  void addOverlay(const QString& path);  // throws kwb::InputError, as open()
  void clearOverlays();
  void setDocument(const RunDocument& doc, const QString& source, bool live = false);
  // A live run's document, built by the run's DocumentBuilder (RunController) and read here in
  // place, never copied: the pages draw from it as it grows. `doc` must stay where it is until
  // setDocument or open replaces it, or until `keeper`, which holds it, is destroyed.
  void followLive(const RunDocument& doc, const QString& source, const QObject* keeper);
  // The followed document's header changed (hello, device, plan): the catalog and pages anew.
  void liveHeaderChanged();
  // The followed document holds cases not yet announced: caseAppended for each, in order.
  void liveCasesAdded();
  void setEngineCatalog(const KernelLookup& catalog);
  // A kernel listed before any document holds it (a user kernel opened from its source).
  void addKernel(const KernelInfo& k);
  // Kernels the plots leave out (unchecked in the kernel list); the data stays.
  void setHiddenKernels(const QStringList& ids);
  bool isShown(const QString& id) const { return !m_hidden.contains(id); }
  bool isShown(const std::string& id) const { return isShown(QString::fromStdString(id)); }

 signals:
  void documentReset();
  void caseAppended(int index);
  void baselineChanged();
  void catalogChanged();
  void filterChanged();
  void overlaysChanged();

 private:
  void rebuildCatalog();
  void stopFollowing();
  RunDocument m_doc;
  const RunDocument* m_liveDoc = nullptr;  // followLive's; m_doc is empty meanwhile
  QMetaObject::Connection m_keeperGone;
  std::size_t m_announced = 0;  // cases of the followed document announced by caseAppended
  QString m_source;
  bool m_live = false;
  std::optional<RunDocument> m_baseline;
  QString m_baselineSource;
  KernelLookup m_engineCatalog;
  KernelLookup m_added;  // addKernel's
  KernelLookup m_catalog;
  QStringList m_hidden;
  QList<Overlay> m_overlays;
};

}  // namespace kwb::gui
