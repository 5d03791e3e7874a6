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
  m_doc.settings = header.settings;
  m_doc.kernels = header.kernels;  // the plan's: a live run's pages read names and stages here
  rebuildCatalog();
  emit documentReset();
}

void ResultsModel::appendCase(const CaseResult& c) {
  m_doc.cases.push_back(c);
  if (!m_catalog.contains(c.kernel)) {
    KernelInfo k =
        m_doc.kernelInfo(c.kernel) ? *m_doc.kernelInfo(c.kernel) : m_catalog.info(c.kernel);
    if (k.precision.empty()) k.precision = std::string(toString(c.precision));
    m_catalog.add(k);
    emit catalogChanged();
  }
  emit caseAppended(int(m_doc.cases.size()) - 1);
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
  m_catalog = KernelLookup::fromDocument(m_doc);
  for (const KernelInfo& k : m_engineCatalog.kernels()) m_catalog.add(k);
  for (const KernelInfo& k : m_added.kernels()) m_catalog.add(k);
}

}  // namespace kwb::gui
