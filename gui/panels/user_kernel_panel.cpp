// SPDX-License-Identifier: Apache-2.0
#include "panels/user_kernel_panel.h"

#include <QFileInfo>
#include <QVBoxLayout>

#include "model/ab_lines.h"

namespace kwb::gui {

namespace {
constexpr int kLineRole = Qt::UserRole;
constexpr int kFileRole = Qt::UserRole + 1;
}  // namespace

UserKernelPanel::UserKernelPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  m_file = new QLabel(this);
  m_file->setWordWrap(true);
  m_status = new QLabel(this);
  m_status->setWordWrap(true);
  m_changes = new QLabel(this);
  m_changes->setObjectName("userKernelChanges");
  m_changes->setWordWrap(true);
  m_changes->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_ab = new QLabel(this);
  m_ab->setObjectName("userKernelAb");
  m_ab->setWordWrap(true);
  m_ab->setTextFormat(Qt::PlainText);
  m_ab->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_ab->setToolTip(
      "kwb ab times the last good save (A) and this save (B) interleaved in one engine process. "
      "B/A is B's time over A's: below 1, this save is faster.");
  m_ab->hide();
  m_diagnostics = new QListWidget(this);
  m_diagnostics->setObjectName("compileErrors");
  m_diagnostics->setToolTip("Click an error to open the file at its line.");
  m_diagnostics->setMaximumHeight(110);
  m_diagnostics->hide();
  m_open = new QPushButton("Open in editor", this);
  layout->addWidget(m_file);
  layout->addWidget(m_status);
  layout->addWidget(m_changes);
  layout->addWidget(m_ab);
  layout->addWidget(m_diagnostics);
  layout->addWidget(m_open);
  connect(m_open, &QPushButton::clicked, this, [this] { emit openRequested(m_path, 0); });
  connect(m_diagnostics, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
    emit openRequested(item->data(kFileRole).toString(), item->data(kLineRole).toInt());
  });
  hide();  // until a source is opened
}

void UserKernelPanel::setSource(const QString& path, const QString& caseId) {
  m_path = path;
  m_file->setText(QString("<b>%1</b> — %2<br>Every save recompiles it and runs it again.")
                      .arg(caseId.toHtmlEscaped(), QFileInfo(path).fileName().toHtmlEscaped()));
  m_file->setToolTip(path);
  m_changes->clear();
  m_ab->clear();
  m_ab->hide();
  m_diagnostics->clear();
  m_diagnostics->hide();
  show();
}

void UserKernelPanel::setStatus(const QString& text, bool error) {
  m_status->setText(text);
  m_status->setStyleSheet(error ? "color: #b00020;" : QString());
}

void UserKernelPanel::setChanges(const QList<KernelChange>& changes) {
  QStringList lines;
  for (const KernelChange& c : changes) lines << c.line();
  m_changes->setText(lines.isEmpty() ? QString("The run has no case of this kernel.")
                                     : lines.join('\n'));
  m_diagnostics->clear();
  m_diagnostics->hide();
}

void UserKernelPanel::setAbNote(const QString& text, bool error) {
  m_ab->setText(QString(kAbHeader) + ": " + text);
  m_ab->setStyleSheet(error ? "color: #b00020;" : QString());
  m_ab->show();
}

void UserKernelPanel::setAbReport(const AbReport& report) {
  const QStringList lines = abLines(report);
  m_ab->setText(QString(kAbHeader) + ", B/A below 1 is faster:\n" +
                (lines.isEmpty() ? QString("no size was compared.") : lines.join('\n')));
  m_ab->setStyleSheet(QString());
  m_ab->show();
}

void UserKernelPanel::setAbFailed(const QString& why, const QList<KernelChange>& separate) {
  setAbNote(why, true);
  QStringList lines{"Separate runs (not a decision; no kwb ab result):"};
  for (const KernelChange& c : separate) lines << c.separateRunLine();
  m_changes->setText(lines.join('\n'));
}

void UserKernelPanel::setDiagnostics(const QList<CompileDiagnostic>& diagnostics) {
  m_diagnostics->clear();
  for (const CompileDiagnostic& d : diagnostics) {
    auto* item = new QListWidgetItem(d.text(), m_diagnostics);
    item->setData(kLineRole, d.line);
    item->setData(kFileRole, d.file);
    item->setToolTip(QString("%1:%2 — click to open it there").arg(d.file).arg(d.line));
    item->setForeground(d.severity == "error" ? QColor(0xb0, 0x00, 0x20) : QColor(0x8a, 0x5a, 0));
  }
  m_diagnostics->setVisible(!diagnostics.isEmpty());
}

}  // namespace kwb::gui
