#include "model/kernel_catalog.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

#include "kwb/error.h"

namespace kwb::gui {
namespace {

// Names and order of the kernels the engine ships, for documents opened without `kwb`: the
// names `kwb list` gives (a test holds them equal), so a report says what the live GUI says.
// Precision strings as kwb::toString(Precision) writes them.
const KernelInfo kKnown[] = {
    {"sgemm.naive", "Naive", "sgemm", 1, "fp32", false, "One thread per element of C"},
    {"sgemm.tiled", "Shared-memory tiled", "sgemm", 2, "fp32", false, "Shared-memory tiles"},
    {"sgemm.bank_free", "Bank-conflict-free", "sgemm", 3, "fp32", false,
     "Tiled with a conflict-free shared-memory layout"},
    {"sgemm.double_buffer", "Double-buffered", "sgemm", 4, "fp32", false,
     "Two shared-memory stages"},
    {"sgemm.tensor_core", "Tensor core (WMMA)", "sgemm", 5, "fp16-fp32acc", false,
     "WMMA, FP16 inputs, FP32 accumulate"},
    {"sgemm.register_blocked", "Register blocked", "sgemm", 6, "fp32", false,
     "2D register blocking with vector loads"},
    {"sgemm.warp_tiled", "Warp tiled", "sgemm", 7, "fp32", false, "Warp tiling"},
    {"sgemm.mma_multistage", "mma.sync multistage", "sgemm", 8, "fp16-fp32acc", false,
     "mma.sync with ldmatrix and a multistage cp.async pipeline"},
    {"sgemm.wgmma", "wgmma + TMA (Hopper)", "sgemm", 9, "fp16-fp32acc", false,
     "Warpgroup MMA fed by TMA through an mbarrier pipeline (sm_90a builds)"},
    {"cublas.sgemm", "cuBLAS SGEMM", "cublas", 0, "fp32", true, "cublasSgemm"},
    {"cublas.hgemm_f32acc", "cuBLAS FP16 (FP32 acc)", "cublas", 0, "fp16-fp32acc", true,
     "cublasGemmEx, FP16 in, FP32 accumulate"},
    {"cublas.tf32", "cuBLAS TF32", "cublas", 0, "tf32", true, "cuBLAS with TF32 tensor cores"},
};

const KernelInfo* known(const QString& id) {
  for (const auto& k : kKnown)
    if (k.id == id) return &k;
  return nullptr;
}

}  // namespace

KernelCatalog KernelCatalog::fromListJson(const QByteArray& json) {
  QJsonParseError err;
  const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
  if (err.error != QJsonParseError::NoError || !doc.isArray())
    throw InputError("`kwb list --json` printed something that is not a JSON array (" +
                     err.errorString().toStdString() + ")");
  KernelCatalog c;
  for (const auto& v : doc.array()) {
    const QJsonObject o = v.toObject();
    KernelInfo k{o.value("id").toString(),         o.value("name").toString(),
                 o.value("family").toString(),     o.value("stage").toInt(),
                 o.value("precision").toString(),  o.value("reference").toBool(),
                 o.value("description").toString()};
    if (k.id.isEmpty()) throw InputError("`kwb list --json` listed a kernel without an id");
    c.m_kernels << k;
  }
  c.sort();
  return c;
}

KernelCatalog KernelCatalog::fromDocument(const RunDocument& doc) {
  KernelCatalog c;
  for (const auto& r : doc.cases) {
    const QString id = QString::fromStdString(r.kernel);
    if (std::none_of(c.m_kernels.begin(), c.m_kernels.end(),
                     [&](const KernelInfo& k) { return k.id == id; }))
      c.add(known(id) ? *known(id)
                      : KernelInfo{id,
                                   id,
                                   id.section('.', 0, 0),
                                   99,
                                   QString::fromStdString(std::string(toString(r.precision))),
                                   id.startsWith("cublas."),
                                   {}});
  }
  c.sort();
  return c;
}

void KernelCatalog::add(const KernelInfo& k) {
  m_kernels << k;
  sort();
}

void KernelCatalog::sort() {
  std::stable_sort(m_kernels.begin(), m_kernels.end(),
                   [](const KernelInfo& a, const KernelInfo& b) {
                     if (a.reference != b.reference) return b.reference;
                     if (a.family != b.family) return a.family < b.family;
                     return a.stage < b.stage;
                   });
}

QList<KernelInfo> KernelCatalog::stages() const {
  QList<KernelInfo> out;
  for (const auto& k : m_kernels)
    if (!k.reference) out << k;
  return out;
}

QList<KernelInfo> KernelCatalog::references() const {
  QList<KernelInfo> out;
  for (const auto& k : m_kernels)
    if (k.reference) out << k;
  return out;
}

KernelInfo KernelCatalog::info(const QString& id) const {
  for (const auto& k : m_kernels)
    if (k.id == id) return k;
  if (const KernelInfo* k = known(id)) return *k;
  return {id, id, id.section('.', 0, 0), 99, {}, id.startsWith("cublas."), {}};
}

QString shortLabel(const KernelInfo& k) {
  if (k.reference) return k.name.isEmpty() ? k.id : k.name;
  QString s = k.id.section('.', 1);
  s.replace('_', ' ');
  return s;
}

}  // namespace kwb::gui
