// The profiler's reading of Nsight Compute's CSV, on real output of `ncu --csv` on the H200
// (examples/exclusive_cumsum.py's Triton kernel inside the NVTX range), and the analyst's verdict
// from it.
#include "kernelopt/profile/ncu.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace kernelopt {
namespace {

std::string fixture() {
  std::ifstream in(std::filesystem::path(KERNELOPT_SOURCE_DIR) /
                   "tests/fixtures/ncu/h200_exclusive_cumsum.csv");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Ncu, ReadsTheSectionsOfARealProfile) {
  const auto kernels = profile::parse_ncu_csv(fixture());
  ASSERT_EQ(kernels.size(), 1U);
  const auto& c = kernels.at("triton_red_fused_cumsum_sub_0");
  EXPECT_DOUBLE_EQ(c.memory_pct, 72.31);
  EXPECT_DOUBLE_EQ(c.compute_pct, 23.88);
  EXPECT_DOUBLE_EQ(c.achieved_occupancy, 57.77);
  EXPECT_DOUBLE_EQ(c.theoretical_occupancy, 62.5);
  EXPECT_EQ(c.registers, 41);
  EXPECT_DOUBLE_EQ(c.grid_size, 1250);        // "1,250"
  EXPECT_NEAR(c.duration_us, 167.296, 1e-9);  // "167,296" ns
  search::SegmentProfile p;
  p.time_ms = 0.175;
  p.floor_ms = 0.175 / 1.24;
  p.counters = c;
  EXPECT_EQ(search::analyze(p).bottleneck, search::Bottleneck::kMemoryBound);
}

TEST(Ncu, TheLastLaunchOfAKernelWinsAndOtherLinesAreSkipped) {
  std::string text = fixture();
  // ncu's own lines and the program's output come before the header; a second launch (ID 1) of
  // the same kernel with another throughput replaces the first one's rows.
  std::string second;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("\"0\",", 0) == 0) second += "\"1\"" + line.substr(3) + "\n";
  }
  const std::string memory = R"("Memory Throughput","%","72.31")";
  const std::size_t at = second.find(memory);
  ASSERT_NE(at, std::string::npos);
  second.replace(at, memory.size(), R"("Memory Throughput","%","12.5")");
  const auto kernels = profile::parse_ncu_csv("program output\n" + text + second);
  ASSERT_EQ(kernels.size(), 1U);
  EXPECT_DOUBLE_EQ(kernels.begin()->second.memory_pct, 12.5);
  EXPECT_EQ(kernels.begin()->second.registers, 41);
  EXPECT_TRUE(profile::parse_ncu_csv("==PROF== no kernels were profiled\n").empty());
}

TEST(Ncu, TheKernelFilterNamesOnlyTheKernelsTheSearchReads) {
  EXPECT_EQ(profile::kernel_filter({}), "regex:triton_");
  EXPECT_EQ(profile::kernel_filter({"triton_red_fused_mean_0"}), "regex:(triton_red_fused_mean_0)");
  // Repeats once; a name that is not an identifier (it would reach the shell and the regex) is
  // left out, and with none left every Triton kernel is profiled.
  EXPECT_EQ(profile::kernel_filter({"triton_poi_a_1", "triton_per_b_2", "triton_poi_a_1", "x|y"}),
            "regex:(triton_poi_a_1|triton_per_b_2)");
  EXPECT_EQ(profile::kernel_filter({"a'; rm -rf /"}), "regex:triton_");
}

}  // namespace
}  // namespace kernelopt
