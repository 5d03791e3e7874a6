#include "model/run_request.h"

namespace kwb::gui {

QStringList RunRequest::toArguments() const {
  QStringList shapeList;
  for (const Shape& s : shapes) shapeList << QString::fromStdString(toString(s));
  QStringList args{"run",      "--stream",         "--kernels", kernels.join(','),
                   "--shapes", shapeList.join(',')};
  if (!suite.isEmpty()) args << "--suite" << suite;  // --shapes and --kernels still choose
  if (samples > 0) args << "--samples" << QString::number(samples);
  if (coldL2) args << "--cold";
  if (seed) args << "--seed" << QString::number(*seed);
  if (device != 0) args << "--device" << QString::number(device);
  return args;
}

}  // namespace kwb::gui
