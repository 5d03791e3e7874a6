#include "model/run_request.h"

#include <QRegularExpression>

namespace kwb::gui {

QStringList RunRequest::toArguments() const {
  QStringList shapeList;
  for (const Shape& s : shapes) shapeList << QString::fromStdString(toString(s));
  // A user kernel's case comes from --source, not from the engine's registry.
  const QStringList builtIn =
      source.isEmpty() ? kernels : kernels.filter(QRegularExpression("^(?!user\\.)"));
  QStringList args{"run", "--stream"};
  if (source.isEmpty() || !builtIn.isEmpty()) args << "--kernels" << builtIn.join(',');
  args << "--shapes" << shapeList.join(',');
  if (!source.isEmpty()) args << "--source" << source;
  if (!suite.isEmpty()) args << "--suite" << suite;  // --shapes and --kernels still choose
  if (samples > 0) args << "--samples" << QString::number(samples);
  if (coldL2) args << "--cold";
  if (seed) args << "--seed" << QString::number(*seed);
  if (device != 0) args << "--device" << QString::number(device);
  return args;
}

}  // namespace kwb::gui
