// The tidying of pasted kernel code (search/detail/straight_line.hpp): index simplification from
// the kernel's own index ranges, loads narrowed to the dimensions of their address, repeated
// statements computed once; each where it applies and not where it would change a value.
#include "kernelopt/propose/detail/straight_line.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

using kernelopt::propose::detail::tidy_pasted;

// The lines of `text`, each indented by four spaces, and which of them are pasted: those that
// start with '+'.
struct Body {
  std::vector<std::string> lines;
  std::vector<bool> pasted;
};

Body body_of(const std::vector<std::string>& text) {
  Body b;
  for (const auto& line : text) {
    const bool pasted = !line.empty() && line[0] == '+';
    b.lines.push_back("    " + (pasted ? line.substr(1) : line));
    b.pasted.push_back(pasted);
  }
  return b;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) {
    out += line + "\n";
  }
  return out;
}

// A 2-D pointwise tile over y = (sample, channel) and x = the pixels of a 31 x 31 output, the
// input channels last (L2/85's max pool).
std::vector<std::string> prologue() {
  return {
      "ynumel = 8192",
      "xnumel = 961",
      "yoffset = tl.program_id(1) * YBLOCK",
      "yindex = yoffset + tl.arange(0, YBLOCK)[:, None]",
      "ymask = tl.full([YBLOCK], True, tl.int1)[:, None]",
      "xoffset = tl.program_id(0) * XBLOCK",
      "xindex = xoffset + tl.arange(0, XBLOCK)[None, :]",
      "xmask = xindex < xnumel",
      "x2 = (xindex % 31)",
      "x3 = xindex // 31",
      "y0 = (yindex % 64)",
      "y1 = yindex // 64",
  };
}

Body with_prologue(const std::vector<std::string>& rest) {
  std::vector<std::string> text = prologue();
  text.insert(text.end(), rest.begin(), rest.end());
  return body_of(text);
}

TEST(StraightLine, SimplifiesAPastedIndexFromTheKernelsRanges) {
  const Body b = with_prologue({
      "+a0 = ((64 + y0 + 256*x2 + 32256*x3 + 1016064*y1) % 64)",
      "+a1 = (24384 + y0 + 256*x2 + 32256*x3 + 1016064*y1) // 1016064",
      "+a2 = ((3 + 4*y1) // 4)",
      "+m = tl.load(p0 + (16*a1 + (a0 // 4)), xmask)",
  });
  const auto t = tidy_pasted(b.lines, b.pasted);
  const std::string text = joined(t.body);
  // a0 is y0 (every other term a multiple of 64, y0 < 64), a1 is y1 (the rest at most 999807),
  // a2 is y1 (3 < 4): the copies go and their uses read the names they equal.
  EXPECT_EQ(t.simplified, 3);
  EXPECT_EQ(text.find("a0 ="), std::string::npos) << text;
  EXPECT_EQ(text.find("a1 ="), std::string::npos) << text;
  EXPECT_NE(text.find("m = tl.load(p0 + (16*y1 + (y0 // 4)), None)"), std::string::npos) << text;
}

TEST(StraightLine, KeepsAnIndexWhoseRemainderCanReachTheDivisor) {
  const Body b = with_prologue({
      "+a0 = ((y0 + 32*x2) % 64)",              // 32*x2 is no multiple of 64 and reaches 960
      "+a1 = (y0 + 64*x2 + 32256*x3) // 2048",  // the rest, y0 + 64*x2, reaches 1983 < 2048, but
                                                // 32256 is no multiple of 2048
      "+a2 = (y0 + ks0*x2) % 64",               // ks0 has no known range
      "+a3 = (y0 - 1) % 64",                    // negative: Triton's % is C's, not Python's
      // Products past 64 bits: kept as written (UBSan checks that nothing overflows).
      "+a4 = ((999999999999999*999999999999999 + y0) % 64)",
      "+a5 = ((999999999999999*999999*x2 + y0) // 64)",
  });
  const auto t = tidy_pasted(b.lines, b.pasted);
  EXPECT_EQ(t.simplified, 0);
  EXPECT_EQ(t.body, b.lines);
}

TEST(StraightLine, ADivisionThatStaysOneIsATermOfItsRange) {
  // L2/11's batch norm inlined into a group norm's loop: (r0_3 % 17) and (r0_3 // 17) stay
  // divisions, but their factors are multiples of 128.
  const Body b = body_of({
      "xnumel = 4096",
      "r0_numel = 4624",
      "xindex = xoffset + tl.arange(0, XBLOCK)[:, None]",
      "xmask = tl.full([XBLOCK], True, tl.int1)[:, None]",
      "r0_base = tl.arange(0, R0_BLOCK)[None, :]",
      "x0 = (xindex % 8)",
      "x1 = xindex // 8",
      "r0_index = r0_offset + r0_base",
      "r0_mask = r0_index < r0_numel",
      "r0_2 = (r0_index % 16)",
      "r0_3 = r0_index // 16",
      "+a0 = ((128 + r0_2 + 16*x0 + 256*((r0_3 % 17)) + 8704*(r0_3 // 17) + 147968*x1) % 128)",
      "+v = tl.load(p0 + (a0), r0_mask)",
  });
  const auto t = tidy_pasted(b.lines, b.pasted);
  EXPECT_EQ(t.simplified, 1);
  EXPECT_NE(joined(t.body).find("a0 = r0_2 + 16*x0\n"), std::string::npos) << joined(t.body);
  // The address depends on x and r0; xmask is always true: the load keeps r0_mask.
  EXPECT_NE(joined(t.body).find("v = tl.load(p0 + (a0), r0_mask)"), std::string::npos);
  EXPECT_EQ(t.narrowed, 0);
}

TEST(StraightLine, NarrowsAPastedLoadToTheDimensionsOfItsAddress) {
  std::vector<std::string> text = prologue();
  text[4] = "ymask = yindex < ynumel";  // y lanes past ynumel exist
  text.insert(text.end(),
              {
                  "+a = tl.load(p0 + (y0), xmask & ymask, eviction_policy='evict_last')",
                  "+b = tl.load(p1 + (x2), xmask & ymask)",
                  "+c = tl.load(p2 + (y0 + 64*x2), xmask & ymask)",
                  "+d = tl.load(p3 + (y0), tmp9 & xmask)",  // a mask of its own
                  "+e = tl.load(p4 + (0), xmask)",
                  "f = tl.load(p5 + (y0), xmask & ymask)",  // not pasted
              });
  const Body b = body_of(text);
  const auto t = tidy_pasted(b.lines, b.pasted);
  const std::string out = joined(t.body);
  EXPECT_NE(out.find("a = tl.load(p0 + (y0), ymask, eviction_policy='evict_last')"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("b = tl.load(p1 + (x2), xmask)"), std::string::npos) << out;
  EXPECT_NE(out.find("c = tl.load(p2 + (y0 + 64*x2), xmask & ymask)"), std::string::npos) << out;
  EXPECT_NE(out.find("d = tl.load(p3 + (y0), tmp9 & xmask)"), std::string::npos) << out;
  EXPECT_NE(out.find("e = tl.load(p4 + (0), None)"), std::string::npos) << out;
  EXPECT_NE(out.find("f = tl.load(p5 + (y0), xmask & ymask)"), std::string::npos) << out;
  EXPECT_EQ(t.narrowed, 3);
  // With ymask always true, the y part of a mask goes too.
  const Body all = with_prologue({"+a = tl.load(p0 + (y0), xmask & ymask)"});
  EXPECT_NE(joined(tidy_pasted(all.lines, all.pasted).body).find("a = tl.load(p0 + (y0), None)"),
            std::string::npos);
}

TEST(StraightLine, ComputesRepeatedPastedStatementsOnce) {
  const Body b = with_prologue({
      "+f0_t0 = tl.load(p0 + (y0), xmask)",
      "+f0_t1 = f0_t0 * 2.0",
      "+f0_r = tl.load(q + (x2), xmask)",
      "+f0_v = f0_r - f0_t1",
      "+f1_t0 = tl.load(p0 + (y0), xmask)",
      "+f1_t1 = f1_t0 * 2.0",
      "+f1_r = tl.load(q + (1 + x2), xmask)",
      "+f1_v = f1_r - f1_t1",
      "tmp0 = triton_helpers.maximum(f0_v, f1_v)",
      "tl.store(out + (x2), tmp0, xmask)",
  });
  const auto t = tidy_pasted(b.lines, b.pasted);
  const std::string out = joined(t.body);
  EXPECT_EQ(out.find("f1_t0 ="), std::string::npos) << out;
  EXPECT_EQ(out.find("f1_t1 ="), std::string::npos) << out;
  EXPECT_NE(out.find("f1_v = f1_r - f0_t1"), std::string::npos) << out;
  EXPECT_NE(out.find("f1_r = tl.load(q + (1 + x2), xmask)"), std::string::npos) << out;
  EXPECT_EQ(t.merged, 2);
}

TEST(StraightLine, DoesNotMergeAcrossAStoreALoopOrAReassignedName) {
  const Body b = body_of({
      "xnumel = 64", "xindex = xoffset + tl.arange(0, XBLOCK)[:]", "xmask = xindex < xnumel",
      "+a = tl.load(p0 + (xindex), xmask)", "tl.store(p0 + (xindex), a + 1.0, xmask)",
      "+b = tl.load(p0 + (xindex), xmask)",  // after the store: another value
      "acc = tl.zeros([XBLOCK], tl.float32)", "for r0_offset in tl.range(0, 8, 1):",
      "+    c = tl.load(p1 + (xindex), xmask)",  // in the loop's block: not the same statement
      "    acc = acc + c", "+d = acc * 2.0",
      "+e = acc * 2.0",  // acc is assigned twice: never merged
      "g = tl.load(p1 + (xindex), xmask)",
      "h = tl.load(p1 + (xindex), xmask)",  // not pasted: Inductor's own lines stay
  });
  const auto t = tidy_pasted(b.lines, b.pasted);
  EXPECT_EQ(t.merged, 0);
  EXPECT_EQ(t.body, b.lines);
}

}  // namespace
