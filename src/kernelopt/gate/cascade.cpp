// A tour: run() checks each candidate alone (G1 static, then G2 isolated), keeps those that pass,
// and checks them together on the recomposed model (G3 model, then G4 performance). When the set
// fails a model gate, it retries twice, each time without the last candidate of the set (the
// caller orders candidates by how much they are expected to give, most first), then gives up: the
// compiler's kernels stay. remembered() is the resume point: a verdict in the store is reused.
#include "kernelopt/gate/cascade.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/core/error.hpp"

namespace kernelopt::gate {

namespace {

constexpr int kRetries = 2;

bool all_ok(const std::vector<Outcome>& outcomes) {
  for (const auto& o : outcomes) {
    if (!o.ok()) return false;
  }
  return !outcomes.empty();
}

}  // namespace

bool CandidateVerdicts::passed() const {
  return all_ok(outcomes) && outcomes.size() == 2;
}

bool SetVerdicts::passed() const {
  return all_ok(outcomes) && outcomes.size() == 2;
}

std::string content_key(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("kernelopt.candidate", fmt::format("{}: no such file", path));
  std::ostringstream text;
  text << in.rdbuf();
  std::uint64_t hash = 1469598103934665603ULL;
  for (const char c : text.str()) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", hash);
}

Cascade::Cascade(GateContext context,
                 store::Store* store,
                 std::int64_t problem_id,
                 Recomposer recompose)
    : context_(std::move(context)),
      store_(store),
      problem_id_(problem_id),
      recompose_(std::move(recompose)) {}

std::int64_t Cascade::candidate_row(int segment,
                                    const std::string& key,
                                    const std::string& path,
                                    const Origin& origin) {
  if (store_ == nullptr) return -1;
  return store_->add_candidate(
      problem_id_,
      store::CandidateInfo{segment, key, path, origin.proposer, origin.strategy, origin.settings});
}

Outcome Cascade::remembered(std::int64_t row,
                            const std::string& gate,
                            const std::function<Outcome()>& check) {
  if (store_ != nullptr) {
    if (auto stored = store_->gate_result(row, gate)) {
      return Outcome{status_from_string(stored->status), gate, stored->detail, stored->numbers};
    }
  }
  const auto started = std::chrono::steady_clock::now();
  Outcome outcome = check();
  // What the gate cost, recomposition and worker included: where a search's seconds go (an L3
  // candidate took about 20 s of its problem's budget, with nothing saying where).
  if (outcome.numbers.is_object()) {
    outcome.numbers["gate_seconds"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
  if (store_ != nullptr) {
    store_->record_gate(row, gate, to_string(outcome.status), outcome.detail, outcome.numbers);
  }
  return outcome;
}

CandidateVerdicts Cascade::check_candidate(const Candidate& candidate) {
  CandidateVerdicts verdicts{candidate, {}};
  const std::int64_t row = candidate_row(candidate.segment, content_key(candidate.path),
                                         candidate.path, candidate.origin);
  verdicts.outcomes.push_back(
      remembered(row, "G1 static", [&] { return check_static(context_, candidate); }));
  if (!verdicts.outcomes.back().ok()) return verdicts;
  verdicts.outcomes.push_back(
      remembered(row, "G2 isolated", [&] { return check_isolated(context_, candidate); }));
  return verdicts;
}

std::int64_t Cascade::set_row(const std::vector<Candidate>& set,
                              const std::vector<std::string>& vendor,
                              const std::string& kind) {
  std::string key = kind;
  for (const auto& c : set) {
    key += fmt::format(":{}={}", c.segment, content_key(c.path));
  }
  // A set under vendor knobs is another set: its verdicts are stored apart from the set's own.
  if (!vendor.empty()) key += fmt::format(":vendor={}", fmt::join(vendor, ","));
  return candidate_row(-1, key, "", Origin{kind, "", nlohmann::json::object()});
}

SetVerdicts Cascade::check_set(const std::vector<Candidate>& set,
                               const std::vector<std::string>& vendor) {
  return check_attempt(set, vendor, false);
}

SetVerdicts Cascade::check_knob(const std::vector<Candidate>& set, const std::string& knob) {
  return check_attempt(set, {knob}, true);
}

SetVerdicts Cascade::check_attempt(const std::vector<Candidate>& set,
                                   const std::vector<std::string>& vendor,
                                   bool against_set) {
  SetVerdicts verdicts;
  for (const auto& c : set) {
    verdicts.segments.push_back(c.segment);
  }
  verdicts.vendor = vendor;
  const std::int64_t row = set_row(set, vendor, against_set ? "knob" : "set");
  const std::string timing = against_set ? "G4 vendor" : "G4 performance";
  std::optional<Recomposed> recomposed;
  const auto recompose = [&]() -> const Recomposed& {
    if (!recomposed) recomposed = recompose_(set);
    return *recomposed;
  };
  verdicts.outcomes.push_back(
      remembered(row, "G3 model", [&] { return check_model(context_, recompose(), vendor); }));
  if (!verdicts.outcomes.back().ok()) return verdicts;
  verdicts.outcomes.push_back(remembered(row, timing, [&] {
    const Recomposed& r = recompose();
    Outcome o = check_performance(context_, r, vendor,
                                  against_set ? std::optional<Recomposed>(r) : std::nullopt);
    o.gate = timing;
    return o;
  }));
  return verdicts;
}

Outcome Cascade::confirm(const std::vector<Candidate>& set,
                         const std::vector<std::string>& vendor) {
  return remembered(set_row(set, vendor), "G4 confirmation",
                    [&] { return check_performance(context_, recompose_(set), vendor); });
}

CascadeResult Cascade::run(const std::vector<Candidate>& candidates) {
  CascadeResult result;
  std::vector<Candidate> set;
  for (const auto& candidate : candidates) {
    result.candidates.push_back(check_candidate(candidate));
    if (result.candidates.back().passed()) set.push_back(candidate);
  }
  for (int attempt = 0; attempt <= kRetries && !set.empty(); ++attempt) {
    result.attempts.push_back(check_set(set));
    if (result.attempts.back().passed()) {
      result.accepted = result.attempts.size() - 1;
      break;
    }
    set.pop_back();
  }
  return result;
}

}  // namespace kernelopt::gate
