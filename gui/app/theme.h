// SPDX-License-Identifier: Apache-2.0
#pragma once
// The window's colours, chosen in Settings ▸ Theme: the system's palette, or a light or dark
// one of kwb-gui's own (docs/GUI.md, "Theme"). Plots follow the palette (applyPlotTheme); the
// report is drawn light whatever the theme.
#include <QString>
#include <optional>

namespace kwb::gui {

enum class Theme { kSystem, kLight, kDark };

QString themeName(Theme t);  // "system", "light", "dark": the saved setting and --theme
std::optional<Theme> parseTheme(const QString& name);

// Sets the application's style and palette. The system's own are remembered the first time,
// so kSystem gives them back after a light or dark theme.
void applyTheme(Theme t);

}  // namespace kwb::gui
