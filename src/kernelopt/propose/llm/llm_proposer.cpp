// The llm proposer: the KernelOPT paper's agents on the Proposer interface. Its settings name an
// agent chain and its step ({"chain": 1, "step": 0}, plus "retry": 1 or 2 for a directed retry).
// Round 1 starts `chains` chains: each asks the planner for a direction (unlike the other chains'),
// then the executor for a whole replacement of the segment. A candidate a gate rejects is retried
// twice with the gate's error (retry); a correct one in the beam is improved on (neighbours: the
// chain's next step, given its best candidate and ratio). The summarizer turns every verdict into
// a line of memory that later prompts carry. Tokens are counted and bound by --llm-max-tokens.
#include <map>
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/propose/llm.hpp"

namespace kernelopt::propose {

namespace {

constexpr int kRetries = 2;  // directed retries per candidate, as in the paper
constexpr std::size_t kLessonChars = 400;

std::string one_line(std::string text, std::size_t most) {
  for (char& ch : text) {
    if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
  }
  const auto first = text.find_first_not_of(' ');
  text = first == std::string::npos ? std::string() : text.substr(first);
  while (!text.empty() && text.back() == ' ') {
    text.pop_back();
  }
  return text.size() > most ? text.substr(0, most) + "..." : text;
}

std::string verdict_of(const search::Attempt& a) {
  if (!a.correct) {
    return fmt::format("{} rejected it: {}", a.failed_gate.empty() ? "a gate" : a.failed_gate,
                       a.reason);
  }
  if (!a.ratio) return "correct (G1, G2 passed), not timed";
  return fmt::format("correct; G4 timed it at {:.3f}x of the compiler's segment{}", *a.ratio,
                     a.accepted ? ", measurably faster" : "");
}

class Llm final : public Proposer {
 public:
  std::string_view name() const override { return "llm"; }

  std::string_view family() const override { return "agent"; }

  std::optional<Match> match(const SegmentView& view) const override {
    const auto& config = llm_config();
    if (!config || view.segment.extern_call) return std::nullopt;
    return Match{
        "llm", llm_segment_context(view),
        fmt::format("{} writes the segment (planner, executor, 2 retries)", config->label())};
  }

  std::vector<nlohmann::json> initial(const Match& /*match*/) const override {
    std::vector<nlohmann::json> out;
    const auto& config = llm_config();
    if (!config || exhausted()) return out;
    for (int chain = 0; chain < config->chains; ++chain) {
      out.push_back({{"chain", chain}, {"step", 0}});
    }
    return out;
  }

  std::vector<nlohmann::json> neighbours(const Match& /*match*/,
                                         const nlohmann::json& settings) const override {
    if (exhausted() || settings.contains("retry")) return {};
    return {{{"chain", settings.value("chain", 0)}, {"step", settings.value("step", 0) + 1}}};
  }

  std::string source(const Match& match,
                     int segment,
                     const nlohmann::json& settings) const override;

  void observe(const Match& match,
               const nlohmann::json& settings,
               const search::Attempt& attempt) override;

  std::optional<nlohmann::json> retry(const Match& /*match*/,
                                      const nlohmann::json& settings,
                                      const search::Attempt& attempt) override {
    const int done = settings.value("retry", 0);
    if (attempt.correct || done >= kRetries || exhausted()) return std::nullopt;
    nlohmann::json next = settings;
    next["retry"] = done + 1;
    return next;
  }

  nlohmann::json usage() const override;

 private:
  // One agent chain on one segment.
  struct Chain {
    std::string direction;  // the planner's
    std::string code;       // its last candidate
    std::string error;      // the gate's verdict on it, when it failed
    std::string best_code;  // its best correct, timed candidate
    std::optional<double> best_ratio;
  };

  bool exhausted() const {
    const auto& config = llm_config();
    return config && config->max_tokens > 0 && input_tokens_ + output_tokens_ >= config->max_tokens;
  }

  nlohmann::json ask(const std::string& role,
                     const nlohmann::json& context,
                     const nlohmann::json& id) const;
  std::string write(const Match& match, int segment, const nlohmann::json& settings) const;

  // What source() learns is kept for the retries, the next steps and observe(): source() is
  // const on the interface, and this state is the proposer's own conversation.
  mutable std::map<std::pair<int, int>, Chain> chains_;
  mutable std::map<int, std::vector<std::string>> lessons_;  // per segment: the summarizer's
  mutable std::unique_ptr<LlmHelper> helper_;
  mutable long requests_ = 0;
  mutable long replayed_ = 0;
  mutable long missing_ = 0;  // requests a replay folder had no response for
  mutable long input_tokens_ = 0;
  mutable long output_tokens_ = 0;
  mutable std::map<std::string, long> by_role_;  // tokens per role
};

nlohmann::json Llm::ask(const std::string& role,
                        const nlohmann::json& context,
                        const nlohmann::json& id) const {
  if (!helper_) helper_ = std::make_unique<LlmHelper>(*llm_config());
  nlohmann::json reply;
  try {
    reply = helper_->complete(role, context, id);
  } catch (const Error& e) {
    if (e.tag() != kLlmReplayMissing) throw;
    // A replay without this answer: the chain gets no code (G1 rejects its candidate), the run
    // goes on.
    ++missing_;
    return {{"text", ""}, {"code", nullptr}, {"missing", e.what()}};
  }
  const nlohmann::json usage = reply.value("usage", nlohmann::json::object());
  const long in = usage.value("input_tokens", 0L);
  const long out = usage.value("output_tokens", 0L);
  ++requests_;
  replayed_ += reply.value("replayed", false) ? 1 : 0;
  input_tokens_ += in;
  output_tokens_ += out;
  by_role_[role] += in + out;
  return reply;
}

std::string Llm::source(const Match& match, int segment, const nlohmann::json& settings) const {
  const auto& config = *llm_config();
  const std::string header = fmt::format(
      "# A candidate written by a language model ({}), segment {}, chain {}, step {}, retry {}.\n",
      config.label(), segment, settings.value("chain", 0), settings.value("step", 0),
      settings.value("retry", 0));
  if (exhausted()) {
    return header + fmt::format(
                        "raise RuntimeError(\"the language model's token budget ({} tokens) is "
                        "spent\")\n",
                        config.max_tokens);
  }
  const std::string code = write(match, segment, settings);
  chains_[{segment, settings.value("chain", 0)}].code = code;
  if (code.empty()) {
    return header +
           "raise RuntimeError(\"the language model's answer held no ```python block that "
           "defines run(inputs, outputs)\")\n";
  }
  return header + code;
}

std::string Llm::write(const Match& match, int segment, const nlohmann::json& settings) const {
  const int chain = settings.value("chain", 0);
  const int step = settings.value("step", 0);
  const int retry = settings.value("retry", 0);
  Chain& c = chains_[{segment, chain}];
  nlohmann::json id = {{"problem", match.params.value("problem", "")},
                       {"segment", segment},
                       {"chain", chain},
                       {"step", step},
                       {"retry", retry}};
  nlohmann::json context = match.params;
  context["segment"] = segment;
  context["tried"] = lessons_[segment];
  std::string role = "executor";
  if (retry > 0) {
    role = "retry";
    context["previous"] = c.code;
    context["error"] = c.error;
    context["retry"] = retry;
  } else {
    if (c.direction.empty()) {
      std::vector<std::string> others;
      for (const auto& [key, other] : chains_) {
        if (key.first == segment && !other.direction.empty()) others.push_back(other.direction);
      }
      context["directions"] = others;
      c.direction = one_line(ask("planner", context, id).value("text", ""), 1200);
    }
    context["direction"] = c.direction;
    context["previous"] = step > 0 ? c.best_code : "";
    context["result"] = c.best_ratio ? fmt::format("it passed every gate at {:.3f}x", *c.best_ratio)
                                     : std::string("none yet");
  }
  const nlohmann::json reply = ask(role, context, id);
  const nlohmann::json& code = reply.at("code");
  return code.is_string() ? code.get<std::string>() : std::string();
}

void Llm::observe(const Match& match, const nlohmann::json& settings, const search::Attempt& a) {
  const int segment = a.segment;
  const auto found = chains_.find({segment, settings.value("chain", 0)});
  // Only what source() wrote in this run: a candidate reused from the cache has no context.
  if (!match.params.contains("kernels") || found == chains_.end() || found->second.code.empty()) {
    return;
  }
  Chain& c = found->second;
  const std::string verdict = verdict_of(a);
  c.error = a.correct ? std::string() : verdict;
  if (a.correct && a.ratio && (!c.best_ratio || *a.ratio > *c.best_ratio)) {
    c.best_ratio = a.ratio;
    c.best_code = c.code;
  }
  std::string lesson = fmt::format("chain {} step {} retry {}: {}", settings.value("chain", 0),
                                   settings.value("step", 0), settings.value("retry", 0),
                                   one_line(verdict, kLessonChars));
  if (!exhausted()) {
    nlohmann::json context = {{"problem", match.params.value("problem", "")},
                              {"segment", segment},
                              {"direction", c.direction},
                              {"verdict", verdict}};
    nlohmann::json id = {{"problem", match.params.value("problem", "")},
                         {"segment", segment},
                         {"chain", settings.value("chain", 0)},
                         {"step", settings.value("step", 0)},
                         {"retry", settings.value("retry", 0)}};
    const std::string said =
        one_line(ask("summarizer", context, id).value("text", ""), kLessonChars);
    if (!said.empty()) lesson += " | " + said;
  }
  lessons_[segment].push_back(std::move(lesson));
}

nlohmann::json Llm::usage() const {
  const auto& config = llm_config();
  if (!config) return nullptr;
  nlohmann::json out = {{"model", config->label()},
                        {"requests", requests_},
                        {"replayed", replayed_},
                        {"missing", missing_},
                        {"input_tokens", input_tokens_},
                        {"output_tokens", output_tokens_},
                        {"tokens", input_tokens_ + output_tokens_},
                        {"tokens_by_role", by_role_},
                        {"max_tokens", config->max_tokens},
                        {"cost_usd", nullptr}};
  if (config->price_in && config->price_out) {
    out["cost_usd"] = (static_cast<double>(input_tokens_) * *config->price_in +
                       static_cast<double>(output_tokens_) * *config->price_out) /
                      1e6;
  }
  return out;
}

}  // namespace

std::unique_ptr<Proposer> make_llm() {
  return std::make_unique<Llm>();
}

}  // namespace kernelopt::propose
