// SPDX-License-Identifier: Apache-2.0
#include "panels/host_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>

namespace kwb::gui {

HostDialog::HostDialog(const EngineLocation& where, QWidget* parent) : QDialog(parent) {
  setWindowTitle(where.isLocal() ? "Add a GPU server" : "GPU server " + where.host);
  auto* form = new QFormLayout(this);
  m_host = new QLineEdit(where.host, this);
  m_host->setPlaceholderText("user@gpu-box, or a Host of ~/.ssh/config");
  m_kwbPath = new QLineEdit(where.kwbPath, this);
  m_kwbPath->setPlaceholderText("kwb (on the server's PATH)");
  m_jump = new QLineEdit(where.jumpHost, this);
  m_jump->setPlaceholderText("none");
  QStringList shown;  // read back with QProcess::splitCommand, which groups "double quotes"
  for (const QString& o : where.sshOptions) shown << (o.contains(' ') ? '"' + o + '"' : o);
  m_options = new QLineEdit(shown.join(' '), this);
  m_options->setPlaceholderText("e.g. -p 2222");
  m_error = new QLabel(this);
  m_error->setWordWrap(true);
  m_error->setStyleSheet("color: #b00020;");
  auto* note = new QLabel(
      "kwb-gui runs kwb there with your ssh keys and agent (ssh -o BatchMode=yes); it never "
      "asks for or stores a password.",
      this);
  note->setWordWrap(true);
  form->addRow("Host:", m_host);
  form->addRow("kwb on the host:", m_kwbPath);
  form->addRow("Jump host:", m_jump);
  form->addRow("More ssh options:", m_options);
  form->addRow(note);
  form->addRow(m_error);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &HostDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &HostDialog::reject);
  form->addRow(buttons);
}

EngineLocation HostDialog::location() const {
  EngineLocation l;
  l.host = m_host->text().trimmed();
  l.kwbPath = m_kwbPath->text().trimmed();
  l.jumpHost = m_jump->text().trimmed();
  l.sshOptions = QProcess::splitCommand(m_options->text());
  return l;
}

void HostDialog::accept() {
  const EngineLocation l = location();
  QString error = l.isLocal() ? QString("Name the host, e.g. user@gpu-box.") : validateLocation(l);
  if (!error.isEmpty()) {
    m_error->setText(error);
    return;
  }
  QDialog::accept();
}

}  // namespace kwb::gui
