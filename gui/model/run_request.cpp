#include "model/run_request.h"

namespace kwb::gui {

QStringList RunRequest::toArguments() const {
  QStringList shapeList;
  for (const Shape& s : shapes) shapeList << QString::fromStdString(toString(s));
  QStringList args{"run",      "--stream",         "--kernels", kernels.join(','),
                   "--shapes", shapeList.join(',')};
  if (samples > 0) args << "--samples" << QString::number(samples);
  if (coldL2) args << "--cold";
  if (seed) args << "--seed" << QString::number(*seed);
  if (device != 0) args << "--device" << QString::number(device);
  return args;
}

QString shapeText(const Shape& s) {
  if (s.m == s.n && s.n == s.k) return QString::number(s.m) + QStringLiteral("³");
  return QString("%1×%2×%3").arg(s.m).arg(s.n).arg(s.k);
}

}  // namespace kwb::gui
