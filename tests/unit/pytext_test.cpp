#include "kernelopt/inductor/detail/pytext.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernelopt/inductor/detail/call_statements.hpp"

namespace {

using kernelopt::inductor::detail::assigned_names;
using kernelopt::inductor::detail::bracket_balance;
using kernelopt::inductor::detail::call_args;
using kernelopt::inductor::detail::comment_start;
using kernelopt::inductor::detail::find_closing;
using kernelopt::inductor::detail::identifiers;
using kernelopt::inductor::detail::indentation;
using kernelopt::inductor::detail::joined_statement;
using kernelopt::inductor::detail::lines_in_triple_quotes;
using kernelopt::inductor::detail::parse_literal;
using kernelopt::inductor::detail::split_keyword;
using kernelopt::inductor::detail::split_lines;
using kernelopt::inductor::detail::split_top_level;
using kernelopt::inductor::detail::strip_brackets;
using Strings = std::vector<std::string>;

TEST(SplitTopLevel, RespectsBracketsAndQuotes) {
  EXPECT_EQ(split_top_level("a, (b, c), [d, {e: f, g: h}], 'x, y', \"(\", z"),
            (Strings{"a", "(b, c)", "[d, {e: f, g: h}]", "'x, y'", "\"(\"", "z"}));
}

// A call of one callee: its arguments, keyword ones as written; anything else gives nothing.
TEST(CallArgs, OnlyForTheWholeTextAsACallOfThatCallee) {
  EXPECT_EQ(call_args("  tl.load(in_ptr0 + (x0), xmask, other=0.0) ", "tl.load"),
            (Strings{"in_ptr0 + (x0)", "xmask", "other=0.0"}));
  EXPECT_EQ(call_args("tl.full([1, 1], 0.0, tl.float32)", "tl.full"),
            (Strings{"[1, 1]", "0.0", "tl.float32"}));
  EXPECT_FALSE(call_args("tl.load(a)", "tl.store").has_value());
  EXPECT_FALSE(call_args("tl.load(a) + 1", "tl.load").has_value());
  EXPECT_FALSE(call_args("x = tl.load(a)", "tl.load").has_value());
}

TEST(SplitTopLevel, DropsTrailingCommaAndHandlesEmpty) {
  EXPECT_EQ(split_top_level("16384, "), (Strings{"16384"}));
  EXPECT_EQ(split_top_level("arg0_1, arg1_1, "), (Strings{"arg0_1", "arg1_1"}));
  EXPECT_TRUE(split_top_level("").empty());
  EXPECT_TRUE(split_top_level("   ").empty());
}

TEST(SplitTopLevel, LaunchArguments) {
  EXPECT_EQ(split_top_level("reinterpret_tensor(buf1, (16, 64), (64, 1), 0), buf0, 262144, "
                            "grid=grid(262144), stream=stream0"),
            (Strings{"reinterpret_tensor(buf1, (16, 64), (64, 1), 0)", "buf0", "262144",
                     "grid=grid(262144)", "stream=stream0"}));
}

TEST(SplitTopLevel, OtherSeparator) {
  EXPECT_EQ(split_top_level("buf3 = f(a; b); del buf2", ';'),
            (Strings{"buf3 = f(a; b)", "del buf2"}));
}

TEST(SplitKeyword, KeywordsAndComparisons) {
  EXPECT_EQ(split_keyword("out=buf0"), (std::pair<std::string, std::string>{"out", "buf0"}));
  EXPECT_EQ(split_keyword("buf0 = f(x=1)"),
            (std::pair<std::string, std::string>{"buf0", "f(x=1)"}));
  EXPECT_EQ(split_keyword("f(x=1)").first, "");
  EXPECT_EQ(split_keyword("a == b").first, "");
  EXPECT_EQ(split_keyword("a <= b").first, "");
  EXPECT_EQ(split_keyword("'a=b'").first, "");
}

TEST(Brackets, FindClosingAndBalance) {
  const std::string text = "f(a, (b), ')', [c])";
  EXPECT_EQ(find_closing(text, 1), text.size() - 1);
  EXPECT_EQ(find_closing("f(a", 1), std::string::npos);
  EXPECT_EQ(bracket_balance("extern_kernels.addmm(arg2_1,  # (comment"), 1);
  EXPECT_EQ(bracket_balance("x = '(('"), 0);
  EXPECT_EQ(strip_brackets(" (buf0, buf1, ) "), "buf0, buf1,");
  EXPECT_EQ(strip_brackets("(a), (b)"), "(a), (b)");
}

TEST(Comments, CommentStartSkipsStrings) {
  EXPECT_EQ(comment_start("buf4 = buf0; del buf0  # reuse"), 23U);
  EXPECT_EQ(comment_start("f('#not', 1)"), std::string::npos);
}

TEST(Lines, SplitAndTripleQuotes) {
  const auto lines = split_lines("a = 1\r\nk = f('x', '''\nsrc\n''')\nb\n");
  ASSERT_EQ(lines.size(), 5U);
  EXPECT_EQ(lines[0], "a = 1");
  EXPECT_EQ(lines[4], "b");
  EXPECT_EQ(lines_in_triple_quotes(lines), (std::vector<bool>{false, false, true, true, false}));
}

TEST(Identifiers, SkipsStringsAndNumbers) {
  EXPECT_EQ(identifiers("reinterpret_tensor(buf1, (16, 1), 'x', 0), out=buf2"),
            (Strings{"reinterpret_tensor", "buf1", "out", "buf2"}));
}

TEST(ParseLiteral, SizeHintsDictAndList) {
  const auto dict = parse_literal("{'x': 4194304, 'r0_': 1024}");
  EXPECT_EQ(dict.dump(), R"({"x":4194304,"r0_":1024})");
  EXPECT_EQ(parse_literal("[4096, 1024]").dump(), "[4096,1024]");
}

TEST(ParseLiteral, SignatureKeepsOrder) {
  const auto signature =
      parse_literal("{'out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'XBLOCK': 'constexpr'}");
  EXPECT_EQ(signature.dump(), R"({"out_ptr0":"*fp32","in_ptr0":"*fp32","XBLOCK":"constexpr"})");
}

TEST(ParseLiteral, ScalarsAndConstants) {
  EXPECT_EQ(parse_literal("[True, False, None, -3, 1.5, 1e-05, \"a\\'b\"]").dump(),
            R"([true,false,null,-3,1.5,1e-05,"a'b"])");
}

TEST(ParseLiteral, UnknownCallsAndNamesKeptAsText) {
  const auto meta = parse_literal(
      "{'signature': {0: '*fp32', 1: 'i32'}, 'device': DeviceProperties(type='cuda', index=0, "
      "cc=90), 'autotune_hints': set(), 'hint': ReductionHint.INNER, "
      "'configs': [{(0,): [['tt.divisibility', 16]]}], 'grid': (1, 2)}");
  EXPECT_EQ(meta["signature"]["0"], "*fp32");
  EXPECT_EQ(meta["signature"]["1"], "i32");
  EXPECT_EQ(meta["device"], "DeviceProperties(type='cuda', index=0, cc=90)");
  EXPECT_EQ(meta["autotune_hints"], "set()");
  EXPECT_EQ(meta["hint"], "ReductionHint.INNER");
  EXPECT_EQ(meta["configs"][0]["(0,)"][0][1], 16);
  EXPECT_EQ(meta["grid"].dump(), "[1,2]");
}

TEST(ParseLiteral, TuplesAndMalformedInput) {
  EXPECT_EQ(parse_literal("(16384, )").dump(), "[16384]");
  EXPECT_EQ(parse_literal("()").dump(), "[]");
  EXPECT_EQ(parse_literal("(7)").dump(), "7");
  EXPECT_EQ(parse_literal("{'a': [1, 2").dump(), R"({"a":[1,2]})");
  EXPECT_EQ(parse_literal("a + b"), "a + b");
}

TEST(Statements, AssignmentsIndentationAndJoinedLines) {
  std::string rhs;
  EXPECT_EQ(assigned_names("a, b = f(x, y=1)", &rhs), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(rhs, "f(x, y=1)");
  for (const char* not_one : {"a += 1", "a == b", "f(y=1)", "a.b = 2", "x[0] = 1"}) {
    EXPECT_TRUE(assigned_names(not_one, &rhs).empty()) << not_one;
  }
  EXPECT_EQ(indentation("        tmp0 = x"), 8U);
  EXPECT_EQ(indentation("   "), 3U);
  const std::vector<std::string> lines = {"    a, b = g(", "        x,", "        y)", "    c = 1"};
  std::size_t i = 0;
  EXPECT_EQ(joined_statement(lines, i), "a, b = g( x, y)");
  EXPECT_EQ(i, 2U);
  i = 3;
  EXPECT_EQ(joined_statement(lines, i), "c = 1");
  EXPECT_EQ(i, 3U);
}

}  // namespace
