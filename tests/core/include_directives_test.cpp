// SPDX-License-Identifier: Apache-2.0
#include "kwb/include_directives.h"

#include <gtest/gtest.h>

#include "kwb/nvrtc_prelude.h"

using namespace kwb;

TEST(IncludeDirectives, BothFormsWithTheirLines) {
  const auto d =
      includeDirectives("#include \"a.h\"\n  #  include <b/c.h>\nint x;\n#import \"d\"\n");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].name, "a.h");
  EXPECT_FALSE(d[0].angled);
  EXPECT_EQ(d[1].name, "b/c.h");
  EXPECT_TRUE(d[1].angled);
  EXPECT_EQ(d[1].line, 2);
  EXPECT_EQ(d[2].line, 4);
}

// What the preprocessor sees, not what a line-by-line reader sees: comments before the #, a
// spliced line, #include_next; an include in a comment or a string is none.
TEST(IncludeDirectives, CommentsAndSplicesDoNotHideAnInclude) {
  const auto d = includeDirectives(
      "/* a\n comment */ #include \"/etc/a\"\n#\\\ninclude \"/etc/b\"\n"
      "# /**/ include_next </etc/c>\n// #include \"/etc/no\"\nconst char* s = \"#include <x>\";\n"
      "/* #include \"/etc/no\" */\n");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].name, "/etc/a");
  EXPECT_EQ(d[0].line, 2);
  EXPECT_EQ(d[1].name, "/etc/b");
  EXPECT_EQ(d[1].line, 3);
  EXPECT_EQ(d[2].name, "/etc/c");
  EXPECT_EQ(d[2].line, 5);
}

TEST(IncludeDirectives, AComputedIncludeKeepsItsOperand) {
  const auto d = includeDirectives("#define H </dev/zero>\n#include H  \n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_TRUE(d[0].name.empty());
  EXPECT_EQ(d[0].operand, "H");
}

TEST(NvrtcPrelude, StandInsAndHints) {
  EXPECT_TRUE(isNvrtcStandIn("cstdio"));
  EXPECT_TRUE(isNvrtcStandIn("cublas_v2.h"));
  EXPECT_FALSE(isNvrtcStandIn("iostream"));
  EXPECT_FALSE(isNvrtcStandIn(kNvrtcPreludeName));
  bool hasPrelude = false;
  for (const auto& [name, text] : nvrtcBuiltinHeaders())
    hasPrelude = hasPrelude || (name == kNvrtcPreludeName &&
                                text.find("typedef unsigned int uint;") != std::string::npos);
  EXPECT_TRUE(hasPrelude);
  EXPECT_NE(compileHints("k.cu(1): catastrophic error: cannot open source file \"iostream\"")
                .find("no host C++ library headers"),
            std::string::npos);
  EXPECT_NE(compileHints("host functions are not allowed in JIT mode").find("main()"),
            std::string::npos);
  EXPECT_NE(compileHints("error: identifier \"cudaMalloc\" is undefined").find("host API"),
            std::string::npos);
  EXPECT_EQ(compileHints("error: expected a \";\""), "");
}
