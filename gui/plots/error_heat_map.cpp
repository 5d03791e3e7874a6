// SPDX-License-Identifier: Apache-2.0
#include "plots/error_heat_map.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QLabel>
#include <QRadioButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "model/case_size.h"
#include "model/doc_queries.h"
#include "plots/error_map_plot.h"

namespace kwb::gui {
namespace {

const CompareReport* reportOf(const CaseResult& c, ErrorHeatMap::Run run) {
  if (!c.verification) return nullptr;
  if (run == ErrorHeatMap::Run::kCanary) return &c.verification->compare;
  return c.verification->alphaBeta ? &*c.verification->alphaBeta : nullptr;
}

QString runName(ErrorHeatMap::Run run) {
  return run == ErrorHeatMap::Run::kCanary ? "Canary run (α = 1, β = 0)" : "α/β run (α ≠ 1, β ≠ 0)";
}

}  // namespace

QString ErrorHeatMap::noGridText() {
  return "No error grid in this results file (recorded by an older kwb).";
}

ErrorHeatMap::ErrorHeatMap(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* toggle = new QHBoxLayout;
  toggle->addWidget(new QLabel("<b>Error heat map</b> of", this));
  m_canary = new QRadioButton("canary run (β = 0)", this);
  m_alphaBeta = new QRadioButton("α/β run", this);
  m_canary->setToolTip("α = 1, β = 0 on a C filled with the canary bytes 0xAA");
  m_alphaBeta->setToolTip("α ≠ 1, β ≠ 0 on a prefilled C");
  m_canary->setChecked(true);
  auto* group = new QButtonGroup(this);
  group->addButton(m_canary);
  group->addButton(m_alphaBeta);
  toggle->addWidget(m_canary);
  toggle->addWidget(m_alphaBeta);
  toggle->addStretch(1);
  layout->addLayout(toggle);
  m_message = new QLabel(this);
  m_message->setWordWrap(true);
  m_message->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(m_message);
  m_plot = new ErrorMapPlot(this);
  layout->addWidget(m_plot, 1);
  m_legend = new QLabel(this);
  m_legend->setWordWrap(true);
  m_legend->setText(
      "Colour: the largest |C − C_ref| in each block of C, on a log scale. Hover a cell for "
      "its exact rows, columns, error and mismatch count.<br>"
      "<span style='color:#e01010'>■</span> red outline: the block holds mismatches<br>"
      "<span style='color:#9e9e9e'>▨</span> grey hatched: a NaN or Inf mismatched there "
      "(no |error| to colour)<br>"
      "□ white: C equals C_ref exactly (0 has no place on a log scale)");
  layout->addWidget(m_legend);
  // Takes the space when there is no map, so that the message stays at the top.
  layout->addStretch(0);
  connect(m_canary, &QRadioButton::toggled, this, [this](bool on) {
    if (on) showRun(Run::kCanary);
  });
  connect(m_alphaBeta, &QRadioButton::toggled, this, [this](bool on) {
    if (on) showRun(Run::kAlphaBeta);
  });
}

void ErrorHeatMap::setCase(const CaseResult& c) {
  m_case = c;
  const bool hasAlphaBeta = c.verification && c.verification->alphaBeta;
  m_alphaBeta->setEnabled(hasAlphaBeta);
  m_canary->setEnabled(c.verification.has_value());
  if (!hasAlphaBeta) m_run = Run::kCanary;
  rebuild();
}

void ErrorHeatMap::showRun(Run run) {
  m_run = run;
  {
    const QSignalBlocker a(m_canary), b(m_alphaBeta);
    (run == Run::kCanary ? m_canary : m_alphaBeta)->setChecked(true);
  }
  rebuild();
}

const ErrorGrid* ErrorHeatMap::shownGrid() const {
  const CompareReport* r = reportOf(m_case, m_run);
  return r && r->grid.rows > 0 && r->grid.cols > 0 ? &r->grid : nullptr;
}

QString ErrorHeatMap::message() const { return m_message->text(); }

void ErrorHeatMap::rebuild() {
  const CompareReport* r = reportOf(m_case, m_run);
  // An output that is no matrix (reduce, scan) has no rows and columns to map: its first
  // wrong index instead.
  const bool vector = !isGemm(m_case.size);
  const ErrorGrid* grid = vector ? nullptr : shownGrid();
  m_plot->setVisible(grid != nullptr);
  m_legend->setVisible(grid != nullptr);
  if (!m_case.verification) {
    m_message->setText("No verification was recorded for this case, so there is no error map.");
  } else if (!r) {
    m_message->setText("No α/β run was recorded for this case.");
  } else if (r->elements == 0) {
    m_message->setText("C has no elements: there is nothing to map.");
  } else if (vector) {
    m_message->setText(
        QString("%1: %2 mismatches of %3 elements%4; max |x − x_ref| %5. A vector has no rows "
                "and columns to map.")
            .arg(runName(m_run))
            .arg(r->mismatches)
            .arg(r->elements)
            .arg(r->mismatches ? " — " + firstMismatchText(*r) : QString())
            .arg(formatNumber(r->maxAbsError, 4)));
  } else if (!grid) {
    m_message->setText(noGridText());
  } else {
    int cells = 0;
    for (std::int64_t n : grid->mismatches) cells += n > 0;
    const Tolerance& t = m_case.verification->tolerance;
    QString line = runName(m_run) + ": ";
    if (r->mismatches)
      line += QString("%1 mismatches in %2 of %3 cells")
                  .arg(r->mismatches)
                  .arg(cells)
                  .arg(grid->rows * grid->cols);
    else
      line += "no mismatches";
    if (r->nonFinite) line += QString(", %1 non-finite").arg(r->nonFinite);
    line +=
        QString("; max |C − C_ref| %1 over finite elements (match: |C − C_ref| ≤ %2 + %3·|C_ref|)")
            .arg(formatNumber(r->maxAbsError, 4))
            .arg(t.atol)
            .arg(t.rtol);
    m_message->setText(line);
    m_plot->setGrid(*grid, m_case.shape().m, m_case.shape().n);
  }
  if (!grid) m_plot->setGrid({}, 0, 0);
  m_plot->replot();
}

}  // namespace kwb::gui
