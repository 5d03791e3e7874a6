// SPDX-License-Identifier: Apache-2.0
// The pure pieces of remote runs: the ssh command line, the failure sentences, saved hosts.
#include <gtest/gtest.h>

#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>

#include "engine/engine_location.h"
#include "engine/remote_failure.h"
#include "engine/ssh_command.h"

using namespace kwb::gui;

namespace {

EngineLocation gpuBox() {
  EngineLocation l;
  l.host = "me@gpu-box";
  return l;
}

}  // namespace

TEST(SshCommand, LocalRunsTheProgramItself) {
  const EngineCommand c = engineCommand({}, "/opt/kwb", {"device", "--json"});
  EXPECT_EQ(c.program, "/opt/kwb");
  EXPECT_EQ(c.arguments, QStringList({"device", "--json"}));
}

TEST(SshCommand, RemoteIsBatchModeSshWithTimeoutsJumpHostAndQuotedCommand) {
  EngineLocation l = gpuBox();
  l.kwbPath = "/srv/kernel workbench/kwb";
  l.jumpHost = "me@bastion";
  l.sshOptions = {"-p", "2222"};
  const EngineCommand c = engineCommand(l, "/local/kwb", {"run", "--stream", "--kernels", "a,b"});
  EXPECT_EQ(c.program, "ssh");
  const QStringList& a = c.arguments;
  EXPECT_EQ(a.first(), "-T");
  EXPECT_TRUE(a.contains("BatchMode=yes"));
  EXPECT_TRUE(a.contains(QString("ConnectTimeout=%1").arg(kSshConnectTimeoutS)));
  EXPECT_TRUE(a.contains(QString("ServerAliveInterval=%1").arg(kSshAliveIntervalS)));
  EXPECT_EQ(a[a.indexOf("-J") + 1], "me@bastion");
  EXPECT_EQ(a[a.indexOf("-p") + 1], "2222");
  // The host comes after "--", so nothing after it is read as an ssh option.
  ASSERT_EQ(a.size() - a.indexOf("--"), 3);
  EXPECT_EQ(a[a.size() - 2], "me@gpu-box");
  EXPECT_EQ(a.last(), "'/srv/kernel workbench/kwb' run --stream --kernels a,b");
}

TEST(SshCommand, TheRemoteShellGetsBackEveryArgumentVerbatim) {
  const QStringList hostile{"a b", "it's", "$(touch /tmp/x)", "`id`", "; rm -rf ~", "", "\\"};
  QString line;
  for (const QString& w : hostile) line += shellQuote(w) + ' ';
  QProcess shell;
  shell.start("/bin/sh", {"-c", "set -- " + line + "; for a; do printf '[%s]' \"$a\"; done"});
  ASSERT_TRUE(shell.waitForFinished(10000));
  QString expected;
  for (const QString& w : hostile) expected += '[' + w + ']';
  EXPECT_EQ(QString::fromUtf8(shell.readAllStandardOutput()), expected);
}

TEST(SshCommand, ATildePathIsLeftForTheRemoteShell) {
  EngineLocation l = gpuBox();
  l.kwbPath = "~/bin/kwb";
  EXPECT_EQ(engineCommand(l, {}, {"list"}).arguments.last(), "~/bin/kwb list");
}

TEST(EngineLocation, HostsThatSshWouldReadAsOptionsAreRefused) {
  EngineLocation l = gpuBox();
  EXPECT_TRUE(validateLocation(l).isEmpty());
  l.host = "-oProxyCommand=touch /tmp/x";
  EXPECT_TRUE(validateLocation(l).contains("'-oProxyCommand")) << validateLocation(l).toStdString();
  l = gpuBox();
  l.jumpHost = "-J evil";
  EXPECT_TRUE(validateLocation(l).contains("jump host"));
  l = gpuBox();
  l.host = "gpu box";
  EXPECT_FALSE(validateLocation(l).isEmpty());
}

TEST(EngineLocation, SavedHostsComeBackAndRemoteSelectsOne) {
  QTemporaryDir dir;
  QSettings s(dir.filePath("kwb.ini"), QSettings::IniFormat);
  EngineLocation a = gpuBox();
  a.kwbPath = "/opt/kwb/bin/kwb";
  a.jumpHost = "me@bastion";
  a.sshOptions = {"-p", "2222"};
  EngineLocation b;
  b.host = "lab-h100";
  saveLocations(s, {a, b});
  saveRunOn(s, "lab-h100");
  const QList<EngineLocation> back = loadLocations(s);
  ASSERT_EQ(back.size(), 2);
  EXPECT_EQ(back[0], a);
  EXPECT_EQ(back[1], b);
  EXPECT_EQ(loadRunOn(s), "lab-h100");
  EXPECT_EQ(locationFor("me@gpu-box", back), a);  // --remote takes the saved path and jump
  EXPECT_EQ(locationFor("new@host", back).host, "new@host");
  EXPECT_TRUE(locationFor("local", back).isLocal());
}

TEST(RemoteFailure, EachCauseIsASentenceNamingTheHost) {
  struct Case {
    int code;
    const char* stderrText;
    bool began;
    const char* expected;
  } cases[] = {
      {255, "ssh: connect to host gpu-box port 22: Connection refused", false, "cannot be reached"},
      {255, "ssh: Could not resolve hostname gpu-box: Name or service not known", false,
       "does not resolve"},
      {255, "ssh: connect to host gpu-box port 22: Connection timed out", false,
       "cannot be reached"},
      {255, "me@gpu-box: Permission denied (publickey).", false, "refused the login"},
      {255,
       "@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n@@@@@@@@\n"
       "Host key verification failed.",
       false, "host key"},
      {255, "Connection to gpu-box closed by remote host.", true, "dropped during the run"},
      {255, "Timeout, server gpu-box not responding.", true, "dropped during the run"},
      {127, "bash: line 1: kwb: command not found", false, "kwb was not found on me@gpu-box"},
      {126, "bash: line 1: /opt/kwb: Permission denied", false, "cannot be executed"},
  };
  for (const Case& c : cases) {
    const QString m = describeRemoteFailure("me@gpu-box", c.code, c.stderrText, c.began);
    EXPECT_TRUE(m.contains(c.expected)) << c.stderrText << " -> " << m.toStdString();
    EXPECT_TRUE(m.contains("me@gpu-box")) << m.toStdString();
    EXPECT_TRUE(m.endsWith('.')) << m.toStdString();
  }
  // The host-key banner's '@' lines are not the reason quoted.
  EXPECT_TRUE(describeRemoteFailure("h", 255, cases[4].stderrText, false)
                  .contains("(Host key verification failed.)"));
}

TEST(RemoteFailure, TheEnginesOwnExitCodesAreNotSshFailures) {
  for (int code : {0, 1, 2, 3, 4})
    EXPECT_TRUE(describeRemoteFailure("h", code, "kwb: error: no CUDA device", true).isEmpty());
}

TEST(RemoteFailure, AProtocolMismatchNamesBothVersions) {
  const QString m = describeProtocolMismatch("gpu-box", 2, 1);
  EXPECT_TRUE(m.contains("gpu-box"));
  EXPECT_TRUE(m.contains("version 2"));
  EXPECT_TRUE(m.contains("version 1"));
}

TEST(EngineLocation, KwbGuiRefusesARemoteHostThatSshWouldReadAsAnOption) {
  QProcess gui;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("QT_QPA_PLATFORM", "offscreen");
  gui.setProcessEnvironment(env);
  gui.start(KWB_GUI_EXE, {"--remote", "-oProxyCommand=touch /tmp/kwb-pwned"});
  ASSERT_TRUE(gui.waitForFinished(30000));
  EXPECT_EQ(gui.exitCode(), 2);
  const QString err = QString::fromLocal8Bit(gui.readAllStandardError());
  EXPECT_TRUE(err.contains("--remote: The host '-oProxyCommand")) << err.toStdString();
}
