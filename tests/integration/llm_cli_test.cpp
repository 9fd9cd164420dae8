// The llm proposer's flags on the command line: offline stays the default, and a run asked for a
// language model without its key (or with a replay folder that is not there) says so in one line
// and exits with status 2 before any GPU work.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "run_binary.hpp"

namespace {

using kernelopt::testing_support::Result;

Result optimize(const std::string& flags) {
  return kernelopt::testing_support::shell(
      "env -u ANTHROPIC_API_KEY -u OPENAI_API_KEY " + std::string(KERNELOPT_BINARY) + " optimize " +
      KERNELOPT_SOURCE_DIR + "/tests/fixtures/problems/good_small.py -o " + ::testing::TempDir() +
      "kernelopt_llm_cli " + flags);
}

void expect_one_line_usage_error(const Result& r, const std::string& says) {
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << r.output;
  EXPECT_NE(r.output.find(says), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("GPU"), std::string::npos) << r.output;  // before any GPU work
}

TEST(LlmCli, AMissingKeyOrReplayFolderIsOneLineBeforeAnyGpuWork) {
  expect_one_line_usage_error(optimize("--llm anthropic:claude-sonnet-4-6"),
                              "ANTHROPIC_API_KEY is not set");
  expect_one_line_usage_error(optimize("--llm openai:gpt-4.1"), "OPENAI_API_KEY is not set");
  expect_one_line_usage_error(optimize("--llm anthropic:m --llm-replay /nonexistent/replay"),
                              "--llm-replay /nonexistent/replay: no such folder");
  expect_one_line_usage_error(optimize("--llm gemini:x"), "expected anthropic:MODEL");
  expect_one_line_usage_error(optimize("--llm-max-tokens 1000"), "need --llm PROVIDER:MODEL");
  expect_one_line_usage_error(optimize("--llm openai:m --llm-base-url http://127.0.0.1:9/v1 "
                                       "--llm-price 3"),
                              "--llm-price 3: expected IN,OUT");
}

// With a replay folder no key is needed: the run gets as far as the GPU check (this machine has
// none, so it stops there, with status 4).
TEST(LlmCli, AReplayNeedsNoKey) {
  const Result r = optimize(std::string("--llm anthropic:replayed --llm-replay ") +
                            KERNELOPT_SOURCE_DIR + "/examples/llm-replay");
  if (r.code == 0 || r.code == 1) GTEST_SKIP() << "this machine has a GPU";
  EXPECT_EQ(r.code, 4) << r.output;
  EXPECT_NE(r.output.find("needs an NVIDIA GPU"), std::string::npos) << r.output;
}

}  // namespace
