// SPDX-License-Identifier: Apache-2.0
// Settings ▸ Theme (docs/GUI.md, "Theme"): system, light or dark, applied to the widgets and
// the plots; the report is drawn light whatever the theme.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QMenuBar>
#include <qcustomplot.h>

#include "app/main_window.h"
#include "app/theme.h"
#include "gui_test_support.h"
#include "pages/progression_page.h"
#include "plots/plot_helpers.h"

namespace kwb::gui {
namespace {

// The plot's background, away from its axes and bars.
int backgroundLightness(QCustomPlot* plot) {
  return plot->toPixmap(400, 300).toImage().pixelColor(3, 3).lightness();
}

QAction* themeAction(MainWindow& w, const QString& name) {
  for (QAction* a : w.menuBar()->findChildren<QAction*>())
    if (a->isCheckable() && a->data().toString() == name) return a;
  return nullptr;
}

TEST(Theme, DarkReachesWidgetsAndPlotsButNotTheReport) {
  MainWindow w(test::quietWindow());
  ASSERT_EQ(w.openResults(test::sampleRun()), "");
  w.resize(1280, 720);
  w.show();
  QCustomPlot* plot = w.progressionPage()->plot();

  w.setTheme(Theme::kDark);
  QApplication::processEvents();  // widgets take a new application palette by an event
  EXPECT_EQ(w.theme(), Theme::kDark);
  EXPECT_TRUE(paletteIsDark());
  EXPECT_LT(w.palette().color(QPalette::Window).lightness(), 80) << "the widgets are dark";
  EXPECT_LT(backgroundLightness(plot), 80) << "the plots are dark";
  ASSERT_NE(themeAction(w, "dark"), nullptr);
  EXPECT_TRUE(themeAction(w, "dark")->isChecked()) << "the menu says which";
  EXPECT_FALSE(themeAction(w, "system")->isChecked());

  // The report draws the pages printing: light on a dark screen.
  w.progressionPage()->setPrinting(true);
  EXPECT_GT(backgroundLightness(plot), 200);
  w.progressionPage()->setPrinting(false);
  EXPECT_LT(backgroundLightness(plot), 80);

  // From the menu, as a user picks it.
  themeAction(w, "light")->trigger();
  EXPECT_EQ(w.theme(), Theme::kLight);
  EXPECT_FALSE(paletteIsDark());
  EXPECT_GT(backgroundLightness(plot), 200);

  w.setTheme(Theme::kSystem);  // the other tests see the system's palette again
  EXPECT_TRUE(themeAction(w, "system")->isChecked());
}

TEST(Theme, NamesReadBackAndAnUnknownOneIsRefused) {
  for (Theme t : {Theme::kSystem, Theme::kLight, Theme::kDark})
    EXPECT_EQ(parseTheme(themeName(t)), t);
  EXPECT_EQ(parseTheme("Dark"), Theme::kDark);
  EXPECT_FALSE(parseTheme("purple").has_value());
}

}  // namespace
}  // namespace kwb::gui
