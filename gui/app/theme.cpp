// SPDX-License-Identifier: Apache-2.0
#include "app/theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace kwb::gui {
namespace {

struct SystemLook {
  QString style;
  QPalette palette;
};

const SystemLook& systemLook() {
  static const SystemLook look{QApplication::style()->name(), QApplication::palette()};
  return look;
}

QPalette darkPalette() {
  const QColor window(0x2b, 0x2c, 0x30), base(0x1e, 0x1f, 0x22), text(0xe0, 0xe0, 0xe0);
  const QColor disabled(0x80, 0x80, 0x80), accent(0x3d, 0x8e, 0xe0);
  QPalette p;
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, window);
  p.setColor(QPalette::ToolTipBase, base);
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, disabled);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, Qt::red);
  p.setColor(QPalette::Link, accent.lighter(130));
  p.setColor(QPalette::Highlight, accent);
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Light, window.lighter(150));
  p.setColor(QPalette::Midlight, window.lighter(120));
  p.setColor(QPalette::Mid, window.darker(120));
  p.setColor(QPalette::Dark, window.darker(160));
  p.setColor(QPalette::Shadow, Qt::black);
  for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, disabled);
  return p;
}

}  // namespace

QString themeName(Theme t) {
  switch (t) {
    case Theme::kLight:
      return "light";
    case Theme::kDark:
      return "dark";
    case Theme::kSystem:
      break;
  }
  return "system";
}

std::optional<Theme> parseTheme(const QString& name) {
  for (Theme t : {Theme::kSystem, Theme::kLight, Theme::kDark})
    if (name.compare(themeName(t), Qt::CaseInsensitive) == 0) return t;
  return std::nullopt;
}

void applyTheme(Theme t) {
  const SystemLook& system = systemLook();
  if (t == Theme::kSystem) {
    QApplication::setStyle(QStyleFactory::create(system.style));
    QApplication::setPalette(system.palette);
    return;
  }
  // Fusion draws every widget from the palette, so the chosen colours hold on any platform.
  QApplication::setStyle(QStyleFactory::create("Fusion"));
  QApplication::setPalette(t == Theme::kDark ? darkPalette()
                                             : QApplication::style()->standardPalette());
}

}  // namespace kwb::gui
