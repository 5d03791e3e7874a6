#include "gui_test_support.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

namespace kwb::gui::test {

QString fixture(const QString& name) {
  return QStringLiteral(KWB_SOURCE_DIR "/tests/data/") + name;
}
QString sampleRun() { return fixture("gui-sample-spec-benchmark.json"); }
QString sampleStream() { return fixture("gui-sample-spec-benchmark.jsonl"); }
QString baselineRun() { return fixture("gui-baseline-spec-benchmark.json"); }

bool waitFor(const std::function<bool()>& done, int timeoutMs) {
  QElapsedTimer t;
  t.start();
  while (!done() && t.elapsed() < timeoutMs) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return done();
}

}  // namespace kwb::gui::test
