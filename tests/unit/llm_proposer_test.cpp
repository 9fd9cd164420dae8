// The llm proposer on a real capture, through its real helper process (python -m kernelopt.llm)
// answering from hand-written responses (--llm-replay: no network) while recording every request
// (--llm-record): it matches nothing unless configured; a chain asks the planner, then the
// executor; a rejected candidate is retried with the gate's error in the prompt, at most twice;
// the summarizer's line reaches the next prompt; tokens are counted and bound the chains.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/core/error.hpp"
#include "kernelopt/propose/llm.hpp"
#include "kernelopt/propose/registry.hpp"

namespace kernelopt {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* const kWrong =
    "import triton\nimport triton.language as tl\n\n\ndef run(inputs, outputs):\n"
    "    pass  # writes nothing\n";
const char* const kFixed =
    "import triton\nimport triton.language as tl\n\n\ndef run(inputs, outputs):\n"
    "    pass  # the corrected one\n";
const char* const kGateError =
    "not_written: seed 0: 1048576 of 1048576 output elements never written";

struct Captured {
  analysis::GraphRun run;
  analysis::DispatchMap map;
};

Captured relu() {
  std::ifstream in(fs::path(KERNELOPT_SOURCE_DIR) /
                   "tests/fixtures/output_code/real/h200_level1_19_ReLU_graph_0.py");
  std::ostringstream text;
  text << in.rdbuf();
  Captured c;
  c.run.code = inductor::parse_output_code(text.str());
  c.map = analysis::build_dispatch_map({c.run}, {});
  return c;
}

// A hand-written response for the request of `role` at chain 0, step 0, `retry`.
void respond(
    const fs::path& dir, const std::string& role, int retry, const std::string& text, int tokens) {
  const json entry = {
      {"match",
       {{"role", role},
        {"problem", "relu.py"},
        {"segment", 0},
        {"chain", 0},
        {"step", 0},
        {"retry", retry}}},
      {"response", {{"text", text}, {"usage", {{"input_tokens", tokens}, {"output_tokens", 1}}}}}};
  std::ofstream(dir / (role + "-" + std::to_string(retry) + ".json")) << entry.dump();
}

std::string recorded(const fs::path& dir, const std::string& role) {
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().rfind(role + "-", 0) != 0) continue;
    std::ifstream in(e.path());
    return json::parse(in).at("request").dump();
  }
  return "";
}

class LlmProposer : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) / "kernelopt_llm_proposer";
    fs::remove_all(root_);
    fs::create_directories(root_ / "replay");
    respond(root_ / "replay", "planner", 0, "Direction: one pass.", 100);
    respond(root_ / "replay", "executor", 0, "Here:\n```python\n" + std::string(kWrong) + "```\n",
            200);
    respond(root_ / "replay", "summarizer", 0, "Writes nothing: store every element.", 10);
    respond(root_ / "replay", "retry", 1, "```python\n" + std::string(kFixed) + "```", 300);
    respond(root_ / "replay", "summarizer", 1, "Still nothing written.", 10);
    respond(root_ / "replay", "retry", 2, "No code this time.", 5);
    propose::LlmConfig config;
    config.provider = "anthropic";
    config.model = "replayed";
    config.replay_dir = (root_ / "replay").string();
    config.record_dir = (root_ / "record").string();
    config.chains = 2;
    config.python_dir = (fs::path(KERNELOPT_SOURCE_DIR) / "python").string();
    propose::configure_llm(config);
  }

  void TearDown() override {
    propose::configure_llm(std::nullopt);
    fs::remove_all(root_);
  }

  fs::path root_;
};

TEST(LlmOff, MatchesNothingUnlessConfigured) {
  propose::configure_llm(std::nullopt);
  const Captured c = relu();
  for (const auto& m : propose::match_strategies(c.run.code, c.map, c.map.segments.at(0))) {
    EXPECT_NE(m.recipe, "llm");
  }
  propose::LlmConfig config;
  propose::parse_llm_spec("anthropic:some-model", config);
  EXPECT_EQ(config.label(), "anthropic:some-model");
  EXPECT_THROW(propose::parse_llm_spec("gemini:x", config), Error);
  ::unsetenv("ANTHROPIC_API_KEY");
  try {
    propose::require_llm_ready(config);
    ADD_FAILURE() << "a missing key must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("ANTHROPIC_API_KEY is not set"), std::string::npos);
  }
  config.provider = "openai";
  config.base_url = "http://127.0.0.1:8000/v1";  // a local server needs no key
  EXPECT_NO_THROW(propose::require_llm_ready(config));
  EXPECT_EQ(config.request().dump().find("KEY\":"), std::string::npos);  // its name, never a key
}

TEST_F(LlmProposer, AChainIsPlannedWrittenAndRetriedWithTheGatesError) {
  const Captured c = relu();
  const auto offered = propose::match_strategies(c.run.code, c.map, c.map.segments.at(0));
  ASSERT_FALSE(offered.empty());
  propose::Match match = offered.back();
  ASSERT_EQ(match.recipe, "llm");
  EXPECT_EQ(propose::proposer_of(match), "agent");
  EXPECT_NE(match.params.at("kernels").at(0).at("source").get<std::string>().find("@triton.jit"),
            std::string::npos);
  EXPECT_EQ(match.params.at("aten"), json::array({"aten.relu"}));
  std::vector<propose::Match> one{match};
  propose::add_llm_context(one, {{"problem", "relu.py"}, {"analysis", "memory_bound: 2.0x"}});
  match = one.front();

  auto all = propose::make_proposers();
  propose::Proposer& llm = *all.back();
  const auto starts = llm.initial(match);
  ASSERT_EQ(starts.size(), 2U);
  EXPECT_EQ(starts[0], (json{{"chain", 0}, {"step", 0}}));
  const std::string first = llm.source(match, 0, starts[0]);
  EXPECT_NE(first.find("# writes nothing"), std::string::npos) << first;
  EXPECT_NE(first.find("anthropic:replayed"), std::string::npos);

  search::Attempt failed;
  failed.segment = 0;
  failed.failed_gate = "G2 isolated";
  failed.reason = kGateError;
  llm.observe(match, starts[0], failed);
  const auto retry = llm.retry(match, starts[0], failed);
  ASSERT_TRUE(retry.has_value());
  EXPECT_EQ(retry->value("retry", 0), 1);
  const std::string fixed = llm.source(match, 0, *retry);
  EXPECT_NE(fixed.find("# the corrected one"), std::string::npos) << fixed;
  // The retry's prompt carries the gate's error and the summarizer's line.
  const std::string asked = recorded(root_ / "record", "retry");
  EXPECT_NE(asked.find(kGateError), std::string::npos) << asked;
  EXPECT_NE(asked.find("# writes nothing"), std::string::npos);
  EXPECT_NE(asked.find("Writes nothing: store every element."), std::string::npos);
  EXPECT_NE(recorded(root_ / "record", "executor").find("Direction: one pass."), std::string::npos);

  llm.observe(match, *retry, failed);
  const auto second = llm.retry(match, *retry, failed);
  ASSERT_TRUE(second.has_value());
  const std::string none = llm.source(match, 0, *second);  // an answer without code
  EXPECT_NE(none.find("held no ```python block"), std::string::npos) << none;
  EXPECT_FALSE(llm.retry(match, *second, failed).has_value());  // two retries, no third

  // The chain's next step has no recorded response: that candidate has no code, the run goes on.
  const auto next = llm.neighbours(match, starts[0]);
  ASSERT_EQ(next.size(), 1U);
  EXPECT_EQ(next[0], (json{{"chain", 0}, {"step", 1}}));
  EXPECT_NE(llm.source(match, 0, next[0]).find("held no ```python block"), std::string::npos);

  const json usage = llm.usage();
  EXPECT_EQ(usage.at("missing"), 1);
  EXPECT_EQ(usage.at("requests"), 6);  // planner, executor, summarizer, retry, summarizer, retry
  EXPECT_EQ(usage.at("replayed"), 6);
  EXPECT_EQ(usage.at("input_tokens"), 100 + 200 + 10 + 300 + 10 + 5);
  EXPECT_EQ(usage.at("output_tokens"), 6);
  EXPECT_EQ(usage.at("tokens_by_role").at("retry"), 300 + 1 + 5 + 1);
  EXPECT_TRUE(usage.at("cost_usd").is_null());
}

TEST_F(LlmProposer, TheTokenBudgetEndsTheChains) {
  propose::LlmConfig config = *propose::llm_config();
  config.max_tokens = 250;
  config.price_in = 3.0;
  config.price_out = 15.0;
  propose::configure_llm(config);
  const Captured c = relu();
  propose::Match match = propose::match_strategies(c.run.code, c.map, c.map.segments.at(0)).back();
  match.params["problem"] = "relu.py";
  auto all = propose::make_proposers();
  propose::Proposer& llm = *all.back();
  const json start = llm.initial(match).at(0);
  EXPECT_NE(llm.source(match, 0, start).find("# writes nothing"), std::string::npos);
  // 302 tokens spent of 250: no more chains, steps or retries, and no request.
  EXPECT_TRUE(llm.initial(match).empty());
  EXPECT_TRUE(llm.neighbours(match, start).empty());
  search::Attempt failed;
  failed.segment = 0;
  failed.failed_gate = "G1 static";
  EXPECT_FALSE(llm.retry(match, start, failed).has_value());
  EXPECT_NE(llm.source(match, 0, json{{"chain", 1}, {"step", 0}}).find("token budget"),
            std::string::npos);
  const json usage = llm.usage();
  EXPECT_EQ(usage.at("requests"), 2);
  EXPECT_DOUBLE_EQ(usage.at("cost_usd").get<double>(), (300 * 3.0 + 2 * 15.0) / 1e6);
}

}  // namespace
}  // namespace kernelopt

namespace kernelopt {
namespace {

// An endpoint nothing answers at: one line naming it, after the retries, and the key (a fake one
// set for the test) in no message.
TEST_F(LlmProposer, AnUnreachableEndpointIsOneLine) {
  propose::LlmConfig config = *propose::llm_config();
  config.provider = "openai";
  config.base_url = "http://127.0.0.1:9/v1";  // the discard port: nothing listens there
  config.replay_dir.clear();
  config.retries = 1;
  config.backoff_s = 0.01;
  config.timeout_s = 5;
  propose::configure_llm(config);
  ::setenv("OPENAI_API_KEY", "sk-kernelopt-fake-key-0b5e", 1);
  const Captured c = relu();
  propose::Match match = propose::match_strategies(c.run.code, c.map, c.map.segments.at(0)).back();
  auto all = propose::make_proposers();
  try {
    (void)all.back()->source(match, 0, json{{"chain", 0}, {"step", 0}});
    ADD_FAILURE() << "an unreachable endpoint must be an error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.tag(), "kernelopt.llm");
    EXPECT_EQ(what.find("cannot reach http://127.0.0.1:9/v1/chat/completions"), 0U) << what;
    EXPECT_NE(what.find("(after 2 tries)"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_EQ(what.find("sk-kernelopt-fake"), std::string::npos) << what;
  }
  ::unsetenv("OPENAI_API_KEY");
}

}  // namespace
}  // namespace kernelopt

namespace kernelopt {
namespace {

// What each role's prompt weighs on every segment of the captured fixtures (docs/llm.md quotes
// the numbers this prints): the planner and executor prompts stay far under a model's context.
TEST_F(LlmProposer, PromptSizesOnTheCapturedFixtures) {
  propose::LlmHelper helper(*propose::llm_config());
  std::map<std::string, std::vector<long>> chars;
  int segments = 0;
  for (const auto& entry :
       fs::directory_iterator(fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code/real")) {
    if (entry.path().extension() != ".py") continue;
    std::ifstream in(entry.path());
    std::ostringstream text;
    text << in.rdbuf();
    Captured c;
    c.run.code = inductor::parse_output_code(text.str());
    c.map = analysis::build_dispatch_map({c.run}, {});
    for (const auto& segment : c.map.segments) {
      if (segment.extern_call) continue;
      ++segments;
      const auto offered = propose::match_strategies(c.run.code, c.map, segment);
      json context = offered.back().params;
      context.update({{"problem", entry.path().filename().string()},
                      {"analysis", "memory_bound: 0.412 ms, 1.83x its floor (SOL memory 71%)"},
                      {"roofline", {{"time_ms", 0.412}, {"floor_ms", 0.225}, {"headroom", 1.83}}},
                      {"counters",
                       {{"sol_memory_pct", 71.2},
                        {"sol_compute_pct", 18.4},
                        {"achieved_occupancy_pct", 88.1},
                        {"registers_per_thread", 32}}},
                      {"tried", {"chain 0 step 0 retry 0: G2 isolated rejected it: wrong_result"}},
                      {"directions", json::array()},
                      {"direction", "Direction: one pass over each row, kept in registers."},
                      {"previous", ""},
                      {"result", "none yet"},
                      {"retry", 1},
                      {"error", kGateError},
                      {"verdict", kGateError}});
      for (const char* role : {"planner", "executor", "retry", "summarizer"}) {
        if (std::string(role) == "retry") context["previous"] = kWrong;
        chars[role].push_back(helper.render(role, context).at("chars").get<long>());
      }
    }
  }
  ASSERT_GT(segments, 20);
  for (auto& [role, sizes] : chars) {
    std::sort(sizes.begin(), sizes.end());
    std::cout << role << ": " << sizes.size() << " segments, characters min " << sizes.front()
              << " median " << sizes[sizes.size() / 2] << " max " << sizes.back() << "\n";
    EXPECT_LT(sizes.back(), 120000) << role;
    EXPECT_GT(sizes.front(), 300) << role;
  }
}

}  // namespace
}  // namespace kernelopt

namespace kernelopt {
namespace {

search::Attempt tried(const std::string& strategy, int chain, bool correct, double ratio) {
  search::Attempt a;
  a.segment = 2;
  a.strategy = strategy;
  a.settings = {{"chain", chain}, {"step", 0}};
  a.correct = correct;
  if (correct) a.ratio = ratio;
  if (!correct) a.failed_gate = "G2 isolated";
  return a;
}

// A language model's chains (family "agent") come after every offline strategy whatever the
// bottleneck, and a wrong chain does not drop the strategy: its chains are independent samples.
// Two timed candidates at 0.8x or worse still do.
TEST(LlmPlan, AgentChainsComeLastAndSurviveAWrongChain) {
  const std::map<std::string, std::string> offered = {
      {"config", "config"}, {"llm", "agent"}, {"recipe:pool", "recipe"}, {"rewrite", "rewrite"}};
  search::Memory m;
  m.independent("llm");
  search::Analysis a;
  a.segment = 2;
  for (const auto b : {search::Bottleneck::kMemoryBound, search::Bottleneck::kComputeBound,
                       search::Bottleneck::kUnderutilized, search::Bottleneck::kUnknown}) {
    a.bottleneck = b;
    const auto p = search::plan(a, offered, m);
    ASSERT_EQ(p.size(), 4U);
    EXPECT_EQ(p.back().name, "llm");
    EXPECT_NE(p.back().why.find("language model"), std::string::npos);
  }
  m.record(tried("llm", 0, false, 0));
  m.record(tried("rewrite", 0, false, 0));
  EXPECT_FALSE(m.abandoned(2, "llm").has_value());
  EXPECT_TRUE(m.abandoned(2, "rewrite").has_value());
  m.record(tried("llm", 1, true, 0.7));
  m.record(tried("llm", 2, true, 0.6));
  EXPECT_TRUE(m.abandoned(2, "llm").has_value());
}

}  // namespace
}  // namespace kernelopt
