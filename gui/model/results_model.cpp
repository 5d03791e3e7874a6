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
  m_doc = doc;
  m_source = source;
  m_live = live;
  rebuildCatalog();
  emit documentReset();
}

void ResultsModel::setHeader(const RunDocument& header) {
  m_doc.toolVersion = header.toolVersion;
  m_doc.gitRevision = header.gitRevision;
  m_doc.host = header.host;
  m_doc.timestamp = header.timestamp;
  m_doc.device = header.device;
  emit documentReset();
}

void ResultsModel::appendCase(const CaseResult& c) {
  m_doc.cases.push_back(c);
  const QString id = QString::fromStdString(c.kernel);
  const auto& ks = m_catalog.kernels();
  if (std::none_of(ks.begin(), ks.end(), [&](const KernelInfo& k) { return k.id == id; })) {
    m_catalog.add(m_catalog.info(id));
    emit catalogChanged();
  }
  emit caseAppended(int(m_doc.cases.size()) - 1);
}

void ResultsModel::setEngineCatalog(const KernelCatalog& catalog) {
  m_engineCatalog = catalog;
  rebuildCatalog();
  emit catalogChanged();
}

void ResultsModel::setHiddenKernels(const QStringList& ids) {
  if (ids == m_hidden) return;
  m_hidden = ids;
  emit filterChanged();
}

void ResultsModel::rebuildCatalog() {
  m_catalog = m_engineCatalog;
  const KernelCatalog fromDoc = KernelCatalog::fromDocument(m_doc);
  for (const KernelInfo& k : fromDoc.kernels()) {
    const auto& ks = m_catalog.kernels();
    if (std::none_of(ks.begin(), ks.end(), [&](const KernelInfo& e) { return e.id == k.id; }))
      m_catalog.add(k);
  }
}

}  // namespace kwb::gui
