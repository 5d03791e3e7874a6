// SPDX-License-Identifier: Apache-2.0
#include "model/results_model.h"

#include <algorithm>

namespace kwb::gui {

ResultsModel::ResultsModel(QObject* parent) : QObject(parent) {}

void ResultsModel::open(const QString& path) {
  setDocument(readDocument(path.toStdString()), path);
}

void ResultsModel::openBaseline(const QString& path) {
  m_baseline = readDocument(path.toStdString());
  m_baselineSource = path;
  emit baselineChanged();
}

void ResultsModel::setBaselineDocument(const RunDocument& doc, const QString& label) {
  m_baseline = doc;
  m_baselineSource = label;
  emit baselineChanged();
}

void ResultsModel::clearBaseline() {
  m_baseline.reset();
  m_baselineSource.clear();
  emit baselineChanged();
}

void ResultsModel::addOverlay(const QString& path) {
  m_overlays.append({path, readDocument(path.toStdString())});
  emit overlaysChanged();
}

void ResultsModel::clearOverlays() {
  if (m_overlays.isEmpty()) return;
  m_overlays.clear();
  emit overlaysChanged();
}

void ResultsModel::setDocument(const RunDocument& doc, const QString& source, bool live) {
  m_doc = doc;  // before stopFollowing: `doc` may be the followed document
  stopFollowing();
  m_source = source;
  m_live = live;
  rebuildCatalog();
  emit documentReset();
}

void ResultsModel::followLive(const RunDocument& doc, const QString& source,
                              const QObject* keeper) {
  stopFollowing();
  m_doc = RunDocument{};
  m_liveDoc = &doc;
  m_announced = doc.cases.size();
  // Once the keeper is gone, so is the document: an empty one in its place.
  m_keeperGone = connect(keeper, &QObject::destroyed, this, [this] { stopFollowing(); });
  m_source = source;
  m_live = true;
  rebuildCatalog();
  emit documentReset();
}

void ResultsModel::stopFollowing() {
  disconnect(m_keeperGone);
  m_liveDoc = nullptr;
  m_announced = 0;
}

void ResultsModel::liveHeaderChanged() {
  if (!m_liveDoc) return;  // another document was opened meanwhile
  rebuildCatalog();
  emit documentReset();
}

void ResultsModel::liveCasesAdded() {
  if (!m_liveDoc) return;
  const std::vector<CaseResult>& cases = m_liveDoc->cases;
  const std::size_t from = std::min(m_announced, cases.size());
  // A kernel the catalog lacks (a later engine's plan named it): the builder listed it.
  const bool newKernel =
      std::any_of(cases.begin() + std::ptrdiff_t(from), cases.end(),
                  [&](const CaseResult& c) { return !m_catalog.contains(c.kernel); });
  if (newKernel) {
    rebuildCatalog();
    emit catalogChanged();
  }
  m_announced = cases.size();
  for (std::size_t i = from; i < cases.size(); ++i) emit caseAppended(int(i));
}

void ResultsModel::setEngineCatalog(const KernelLookup& catalog) {
  m_engineCatalog = catalog;
  rebuildCatalog();
  emit catalogChanged();
}

void ResultsModel::addKernel(const KernelInfo& k) {
  if (m_added.contains(k.id)) return;
  m_added.add(k);
  rebuildCatalog();
  emit catalogChanged();
}

void ResultsModel::setHiddenKernels(const QStringList& ids) {
  if (ids == m_hidden) return;
  m_hidden = ids;
  emit filterChanged();
}

void ResultsModel::rebuildCatalog() {
  // The document's own entries first: they describe the kernels as the engine that ran them
  // registered them; the engine's list adds the kernels it could run now.
  m_catalog = KernelLookup::fromDocument(document());
  for (const KernelInfo& k : m_engineCatalog.kernels()) m_catalog.add(k);
  for (const KernelInfo& k : m_added.kernels()) m_catalog.add(k);
}

}  // namespace kwb::gui
