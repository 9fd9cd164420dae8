#pragma once
// The `llm` proposer's settings and the engine's side of its helper process. The proposer (the
// KernelOPT paper's agents: planner, executor, two directed retries, summarizer) asks a language
// model for a whole replacement of a segment; its requests go to `python -m kernelopt.llm`
// (python/kernelopt/llm/), which fills the roles' prompt templates, talks HTTP to the provider,
// records and replays. Offline is the default: without configure_llm() the proposer matches
// nothing. The key is read from the environment by the helper alone; nothing here holds it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/propose/proposer.hpp"
#include "kernelopt/worker/worker.hpp"

namespace kernelopt::propose {

struct LlmConfig {
  std::string provider;        // "anthropic" (Messages API) or "openai" (chat completions)
  std::string model;           // the provider's model name
  std::string base_url;        // "": the provider's hosted API; else e.g. a local server's /v1
  std::string record_dir;      // "": no recording; else every request and response is kept there
  std::string replay_dir;      // "": ask the provider; else answer from the recordings (no network)
  long max_tokens = 0;         // tokens (input + output) a problem's search may spend; 0: no limit
  int chains = 3;              // agent chains started per segment (round 1 of the beam)
  int response_tokens = 8192;  // the most tokens one answer may have
  double timeout_s = 300;      // per HTTP try
  int retries = 4;             // on 429, 5xx and a dropped connection, with backoff
  double backoff_s = 2;        // the first wait; doubled each retry (a Retry-After wins)
  std::optional<double> price_in;   // USD per million input tokens, where known
  std::optional<double> price_out;  // USD per million output tokens
  std::string python_dir;           // the folder holding the kernelopt package
  std::string problem;              // the problem file's name, for the prompts

  // The environment variable the key is in (ANTHROPIC_API_KEY or OPENAI_API_KEY).
  [[nodiscard]] std::string key_env() const;
  // Whether a request needs a key: not when replaying, nor for an OpenAI-compatible local
  // server given by --llm-base-url (it gets the key only where the variable is set).
  [[nodiscard]] bool key_required() const;
  // "anthropic:claude-sonnet-4-6".
  [[nodiscard]] std::string label() const;
  // The settings the helper gets with every request: never the key, only its variable's name.
  [[nodiscard]] nlohmann::json request() const;
};

// Parses --llm's PROVIDER:MODEL into `config`; throws Error("kernelopt.usage", kUsage) on a bad
// one.
void parse_llm_spec(const std::string& spec, LlmConfig& config);

// One line and ExitCode::kUsage when the key the config needs is not in the environment, or a
// replay folder does not exist: called before any GPU work.
void require_llm_ready(const LlmConfig& config);

// The process-wide settings (set once by the command before the search; none by default).
void configure_llm(std::optional<LlmConfig> config);
const std::optional<LlmConfig>& llm_config();

// The helper process: one JSON request a line, as the worker. Errors are one line: an Error
// ("kernelopt.llm") with the helper's message (an unreachable endpoint, a refused key), or with
// how the helper itself failed; a request a replay folder has no response for is an Error tagged
// kLlmReplayMissing, which ends that chain only.
inline constexpr const char* kLlmReplayMissing = "kernelopt.llm.replay";

class LlmHelper {
 public:
  explicit LlmHelper(LlmConfig config);
  // The helper's answer to {"op": "complete", "role", "context", "match"}: text, code, usage.
  nlohmann::json complete(const std::string& role,
                          const nlohmann::json& context,
                          const nlohmann::json& match);
  // A role's prompt filled from a context, without asking anyone: {"system", "user", "chars"}.
  nlohmann::json render(const std::string& role, const nlohmann::json& context);

 private:
  nlohmann::json ask(const nlohmann::json& request);

  LlmConfig config_;
  std::unique_ptr<worker::Worker> process_;
};

// The segment's side of what the agents see, from its output code: its kernels (name, kind,
// source, ATen ops, Graph fragment, launch statement), the ATen ops of the whole segment and the
// strategies the proposers asked before offer. The engine adds the measured side (add_llm_context).
nlohmann::json llm_segment_context(const SegmentView& view);

// Merges `extra` (the problem, the interface's shapes, strides and dtypes, the analyst's verdict,
// the roofline numbers, the trimmed counters) into the context of every `llm` match of a segment.
void add_llm_context(std::vector<Match>& offered, const nlohmann::json& extra);

}  // namespace kernelopt::propose
