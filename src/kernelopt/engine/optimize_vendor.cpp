// The vendor stage of optimize (optimize_stages.hpp): settings of cuDNN and cuBLAS around the
// calls the compiler kept, each a model-level candidate through the same gates as a set of
// Triton replacements.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/ask.hpp"
#include "kernelopt/engine/optimize_stages.hpp"
#include "kernelopt/engine/outcome_class.hpp"

namespace kernelopt::engine {

namespace {

// The knobs the worker says apply and can run around the compiled graphs, in its order; `said`
// gets every knob's verdict.
std::vector<std::string> knobs_to_try(const nlohmann::json& reply, nlohmann::json& said) {
  std::vector<std::string> names;
  said = nlohmann::json::array();
  for (const auto& k : reply.value("knobs", nlohmann::json::array())) {
    const std::string name = k.value("name", "");
    const bool applies = k.value("applies", false);
    const bool around = k.value("around_graphs", false);
    said.push_back({{"knob", name},
                    {"applies", applies},
                    {"around_graphs", around},
                    {"reason", k.value("reason", "")}});
    if (applies && around && !name.empty()) names.push_back(name);
  }
  return names;
}

bool measured_faster(const gate::SetVerdicts& v) {
  return v.passed() && v.outcomes.back().numbers.value("speed_class", "") == "faster";
}

}  // namespace

nlohmann::json tune_vendor(const VerifyOptions& options,
                           worker::Worker& worker,
                           Workbench& bench,
                           gate::CascadeResult& result,
                           const std::vector<gate::Candidate>& candidates,
                           const Progress& say) {
  nlohmann::json doc = {{"knobs", nlohmann::json::array()},
                        {"tried", nlohmann::json::array()},
                        {"kept", nlohmann::json::array()}};
  nlohmann::json reply;
  try {
    reply = ask(worker, {{"op", "vendor_knobs"}},
                std::chrono::duration_cast<std::chrono::milliseconds>(options.gate_timeout),
                options.problem);
  } catch (const Error& e) {  // the Triton result stands without the vendor stage
    doc["error"] = e.what();
    return doc;
  }
  const std::vector<std::string> names = knobs_to_try(reply, doc["knobs"]);
  if (names.empty()) return doc;
  const std::vector<gate::Candidate> set =
      result.accepted ? accepted_of(result, candidates) : std::vector<gate::Candidate>{};
  const std::string base = set.empty() ? "the compiler's graphs" : "the chosen set";
  std::vector<std::string> faster;
  for (const auto& name : names) {
    if (say) say(fmt::format("vendor: {} on top of {}", name, base));
    const gate::SetVerdicts v = bench.cascade().check_knob(set, name);
    const bool kept = measured_faster(v);
    if (say) say(fmt::format("vendor: {}: {}", name, v.outcomes.back().detail));
    doc["tried"].push_back({{"knob", name},
                            {"on", base},
                            {"measurably_faster", kept},
                            {"gates", outcomes_json(v.outcomes)}});
    if (kept) faster.push_back(name);
  }
  if (faster.empty()) return doc;
  // The knobs together, against the compiled graphs as every accepted set is, then again.
  gate::SetVerdicts together = bench.cascade().check_set(set, faster);
  doc["attempt"] = {{"vendor", faster},
                    {"passed", together.passed()},
                    {"gates", outcomes_json(together.outcomes)}};
  if (!together.passed()) return doc;
  gate::CascadeResult with = result;
  with.attempts.push_back(std::move(together));
  with.accepted = with.attempts.size() - 1;
  if (say) say(fmt::format("vendor: timing {} again (confirmation)", fmt::join(faster, " + ")));
  const Outcome again = bench.cascade().confirm(set, faster);
  const bool confirmed = confirm_choice(with, again);
  doc["confirmation"] = {
      {"confirmed", confirmed}, {"status", to_string(again.status)}, {"detail", again.detail}};
  if (confirmed) {
    result = std::move(with);
    doc["kept"] = faster;
  }
  return doc;
}

}  // namespace kernelopt::engine
