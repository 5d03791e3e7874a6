// SPDX-License-Identifier: Apache-2.0
#include "model/output_file.h"

#include <QFile>
#include <cstddef>

#include "kwb/error.h"
#include "kwb/text_file.h"

namespace kwb::gui {

QString writeOutputFile(const QString& path, const QByteArray& bytes, const QString& option) {
  try {
    writeBytesFile(QFile::encodeName(path).toStdString(), bytes.constData(),
                   std::size_t(bytes.size()), option.toStdString());
  } catch (const InputError& e) {
    return QString::fromLocal8Bit(e.what()) + "; any previous file there is unchanged.";
  }
  return {};
}

}  // namespace kwb::gui
