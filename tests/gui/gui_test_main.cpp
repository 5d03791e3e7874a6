// SPDX-License-Identifier: Apache-2.0
// GUI tests run offscreen with a QApplication; settings go to a throwaway test location.
#include <gtest/gtest.h>

#include <QApplication>
#include <QStandardPaths>

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QStandardPaths::setTestModeEnabled(true);
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KernelWorkbenchTests");
  QApplication::setApplicationName("test_gui");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
