// SPDX-License-Identifier: Apache-2.0
#include "model/kernel_change.h"

namespace kwb::gui {

QString KernelChange::line() const {
  QString s = QString::fromStdString(toString(shape)) + ": ";
  if (gflops <= 0) return s + status;
  s += QString("%1 GFLOP/s").arg(gflops, 0, 'f', 1);
  if (status != "pass") s += " (" + status + ")";
  return s;
}

QString KernelChange::separateRunLine() const {
  if (gflops <= 0) return line();
  if (!changePct) return line() + ", no previous run";
  return line() + QString(", %1%2% vs the previous run")
                      .arg(*changePct >= 0 ? "+" : "")
                      .arg(*changePct, 0, 'f', 1);
}

QList<KernelChange> kernelChanges(const RunDocument& now,
                                  const std::optional<RunDocument>& previous,
                                  const std::string& kernel) {
  QList<KernelChange> out;
  for (const CaseResult& c : now.cases) {
    if (c.kernel != kernel) continue;
    KernelChange k;
    k.shape = c.shape();
    k.status = QString::fromUtf8(toString(c.status).data());
    k.gflops = c.timed() ? c.gflops : 0;
    const CaseResult* p = previous ? previous->find(c.kernel, c.shape()) : nullptr;
    if (p && p->timed() && p->gflops > 0 && k.gflops > 0) {
      k.previous = p->gflops;
      k.changePct = (k.gflops / p->gflops - 1) * 100;
    }
    out << k;
  }
  return out;
}

}  // namespace kwb::gui
