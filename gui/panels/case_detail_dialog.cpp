// SPDX-License-Identifier: Apache-2.0
#include "panels/case_detail_dialog.h"

#include <QDialogButtonBox>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "model/case_size.h"
#include "model/doc_queries.h"
#include "plots/error_heat_map.h"

namespace kwb::gui {
namespace {

QString row(const QString& k, const QString& v) {
  return QString("<tr><td><b>%1</b></td><td>%2</td></tr>")
      .arg(k.toHtmlEscaped(), v.toHtmlEscaped());
}

QString compareRows(const QString& title, const CompareReport& r, bool vector) {
  QString h = row(title, QString("%1 mismatches of %2 elements, %3 non-finite")
                             .arg(r.mismatches)
                             .arg(r.elements)
                             .arg(r.nonFinite));
  h += row("  max abs / rel error",
           formatNumber(r.maxAbsError, 6) + " / " + formatNumber(r.maxRelError, 6));
  if (vector && firstMismatchIndex(r))
    h += row("  first mismatch", firstMismatchText(r));  // "first mismatch at index …"
  else if (r.firstMismatch)
    h += row("  first mismatch", QString("C[%1][%2] = %3, expected %4")
                                     .arg(r.firstMismatch->row)
                                     .arg(r.firstMismatch->col)
                                     .arg(formatNumber(r.firstMismatch->got, 9),
                                          formatNumber(r.firstMismatch->expected, 9)));
  else
    h += row("  first mismatch", "none");
  return h;
}

// kwb run --energy: the case's window alone, between two readings of the energy counter.
QString energyRows(const EnergyReading& e) {
  if (!e.measured()) return row("energy", "not measured: " + QString::fromStdString(e.unavailable));
  QString h;
  if (e.workPerJoule > 0)
    h += row("energy efficiency",
             QString("%1 %2 ± %3%")
                 .arg(formatNumber(e.workPerJoule, 4), QString::fromStdString(e.workUnit))
                 .arg(e.uncertaintyPct, 0, 'f', 2));
  h += row("energy per launch", formatNumber(e.joulesPerLaunch, 4) + " J");
  h += row("window power", QString("%1 W (board, idle %2 W not subtracted; limit %3 W)")
                               .arg(e.powerW, 0, 'f', 0)
                               .arg(e.idlePowerW, 0, 'f', 0)
                               .arg(e.powerLimitW, 0, 'f', 0));
  h += row("energy window", QString("%1 s, %2 launches alone, SM clock %3–%4 MHz")
                                .arg(e.windowS, 0, 'f', 2)
                                .arg(e.launches)
                                .arg(e.smClockMhzMin)
                                .arg(e.smClockMhzMax));
  return h;
}

}  // namespace

QString CaseDetailDialog::describe(const CaseResult& c, const RunDocument& doc) {
  QString h = QString("<h3>%1 at %2 — <span style='color:%3'>%4</span></h3><table>")
                  .arg(QString::fromStdString(c.kernel), sizeName(c, false),
                       statusColor(c.status).name(), statusText(c.status));
  if (!c.message.empty()) h += row("message", QString::fromStdString(c.message));
  // A 1-D case's precision is its size's element type (i32, u8), not the kernel's default.
  const std::string type = isGemm(c.size) ? std::string() : c.size.word("type");
  h += row("precision", type.empty() ? QString::fromLatin1(toString(c.precision).data())
                                     : QString::fromStdString(type));
  if (const QString device = caseDeviceText(doc, c); !device.isEmpty()) h += row("device", device);
  if (c.fallback || (!c.ranKernel.empty() && c.ranKernel != c.kernel))
    h += row("ran", QString::fromStdString(c.ranKernel) + (c.fallback ? " (FP32 fallback)" : ""));
  if (c.verification) {
    const Verification& v = *c.verification;
    h += row("reference", QString::fromStdString(v.reference));
    h += row("seed", QString::number(v.seed));
    h += row("tolerance", QString("rtol %1, atol %2").arg(v.tolerance.rtol).arg(v.tolerance.atol));
    h += row("canary unwritten",
             QString("%1 elements%2")
                 .arg(v.unwritten)
                 .arg(v.unwritten ? " — the kernel left part of C unwritten" : ""));
    h += compareRows("compare (α=1, β=0)", v.compare, !isGemm(c.size));
    h +=
        row("negative control", v.negativeControlRejected
                                    ? "mangled reference rejected (the comparator works)"
                                    : "mangled reference ACCEPTED — the comparison proves nothing");
    if (v.alphaBeta) h += compareRows("compare (α≠1, β≠0)", *v.alphaBeta, !isGemm(c.size));
    if (v.nanFromOutput)
      h += row("NaN-filled output",
               QString("%1 NaN out%2")
                   .arg(*v.nanFromOutput)
                   .arg(*v.nanFromOutput ? " — the kernel read its output" : ""));
    if (v.timedOutput) h += compareRows("timed launches' output", *v.timedOutput, !isGemm(c.size));
  } else {
    h += row("verification", "not recorded");
  }
  if (!c.suspicious.empty()) h += row("SUSPICIOUS", QString::fromStdString(c.suspicious));
  if (c.inputSets > 1) h += row("input sets", QString::number(c.inputSets) + " (--fresh-inputs)");
  if (c.timed()) {
    const auto& s = c.summary;
    h += row(headlineUnit(doc, c), formatNumber(headline(doc, c), 6));
    if (const auto pct = !isGemm(c.size) ? refPercent(doc, c) : std::nullopt)
      h += row("% of " + pct->reference, formatNumber(pct->pct, 4));
    if (c.pctOfFp32Reference) h += row("% of cuBLAS SGEMM", formatNumber(*c.pctOfFp32Reference, 4));
    if (c.pctOfFp16Reference) h += row("% of cuBLAS FP16", formatNumber(*c.pctOfFp16Reference, 4));
    if (c.pctOfBf16Reference) h += row("% of cuBLAS BF16", formatNumber(*c.pctOfBf16Reference, 4));
    h += row("median ms", QString("%1 (95% CI %2–%3)")
                              .arg(formatNumber(s.median, 6), formatNumber(s.ci95.low, 6),
                                   formatNumber(s.ci95.high, 6)));
    h += row("min / max ms", formatNumber(s.min, 6) + " / " + formatNumber(s.max, 6));
    h += row("samples", QString("%1 (× %2 launches each, L2 %3), CV %4%")
                            .arg(c.samplesMs.size())
                            .arg(c.launchesPerSample)
                            .arg(c.coldL2 ? "cold" : "hot")
                            .arg(s.cv * 100, 0, 'f', 2));
  }
  if (c.clocks.available) {
    h += row("SM clock",
             QString("%1–%2 MHz").arg(c.clocks.smClockMhzMin).arg(c.clocks.smClockMhzMax));
    h +=
        row("temperature / power",
            QString("%1 °C max, %2 W mean").arg(c.clocks.temperatureCMax).arg(c.clocks.powerWMean));
    QStringList reasons;
    for (const auto& r : c.clocks.throttleReasons) reasons << QString::fromStdString(r);
    if (!reasons.isEmpty()) h += row("throttle reasons", reasons.join(", "));
  }
  if (c.energy) h += energyRows(*c.energy);
  return h + "</table>";
}

CaseDetailDialog::CaseDetailDialog(const CaseResult& c, const RunDocument& doc, QWidget* parent)
    : QDialog(parent), m_case(c), m_roof(caseRoof(c, doc)) {
  setWindowTitle(
      QString("Case %1 at %2").arg(QString::fromStdString(c.kernel), sizeName(c, false)));
  auto* layout = new QVBoxLayout(this);
  // The facts over the Nsight Compute panel, once profiling is enabled; the panel takes room
  // only when it has a profile to show.
  m_split = new QSplitter(Qt::Vertical, this);
  m_split->setObjectName("caseSplit");
  m_split->setChildrenCollapsible(false);
  m_text = new QTextBrowser(this);
  m_text->setHtml(describe(c, doc));
  m_heatMap = new ErrorHeatMap(this);
  m_heatMap->setCase(c);
  // Beside a profile's tabs at 1280×720 the map may be shorter than it is on its own.
  for (auto* plot : m_heatMap->findChildren<QCustomPlot*>()) plot->setMinimumHeight(180);
  if (isGemm(c.size)) {
    // Side by side: the facts on the left, where in C the errors are on the right.
    auto* facts = new QSplitter(Qt::Horizontal, m_split);
    facts->addWidget(m_text);
    facts->addWidget(m_heatMap);
    facts->setStretchFactor(0, 2);
    facts->setStretchFactor(1, 3);
    facts->setSizes({440, 660});
    m_split->addWidget(facts);
  } else {
    // A vector has no rows and columns to map: the facts (first mismatch included) take the
    // width, the heat map stays out of the dialog.
    m_heatMap->hide();
    m_split->addWidget(m_text);
  }
  layout->addWidget(m_split, 1);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  resize(1120, 640);
}

NcuProfilePanel* CaseDetailDialog::enableProfiling(const ProfileContext& ctx) {
  if (m_profile) return m_profile;
  m_profile = new NcuProfilePanel(m_case, ctx, m_roof, this);
  m_split->addWidget(m_profile);
  m_split->setStretchFactor(0, 1);
  m_split->setStretchFactor(1, m_profile->profile() ? 1 : 0);
  // With a profile its tabs get room of their own; without one the panel is a row of buttons
  // and the facts keep the height.
  const auto giveTabsRoom = [this] {
    const int h = m_split->height() > 0 ? m_split->height() : height();
    m_split->setSizes({h * 2 / 5, h * 3 / 5});
  };
  if (m_profile->profile()) {
    resize(width(), height() + 330);
    giveTabsRoom();
  }
  connect(m_profile, &NcuProfilePanel::finished, this, [this, giveTabsRoom](bool ok) {
    if (ok && m_split->sizes().value(1) < 250) giveTabsRoom();
  });
  return m_profile;
}

}  // namespace kwb::gui
