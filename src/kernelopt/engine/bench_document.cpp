#include "kernelopt/engine/bench_document.hpp"

#include <map>

#include <fmt/format.h>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/outcome_class.hpp"

namespace kernelopt::engine {

namespace {

constexpr const char* kSchema = "kernelopt.bench.problem/1";

analysis::ProblemClass parse_class(const nlohmann::json& show) {
  const std::string text = show.value("class", "");
  for (const auto cls :
       {analysis::ProblemClass::kNoTriton, analysis::ProblemClass::kVendorDominated,
        analysis::ProblemClass::kOptimizable}) {
    if (analysis::to_string(cls) == text) return cls;
  }
  throw Error("kernelopt.input", fmt::format("show document of {}: unknown class '{}'",
                                             show.value("problem", "?"), text));
}

nlohmann::json optional_json(const auto& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json cost_json(const ProblemCost& cost) {
  return {{"gpu_seconds", cost.gpu_seconds},
          {"wall_seconds", cost.wall_seconds},
          {"llm_tokens", cost.llm_tokens},
          {"gpu", optional_json(cost.gpu)},
          {"free_memory_bytes", optional_json(cost.free_memory_bytes)},
          {"peak_memory_bytes", optional_json(cost.peak_memory_bytes)},
          {"baseline_seconds", optional_json(cost.baseline_seconds)},
          {"search_seconds", optional_json(cost.search_seconds)}};
}

nlohmann::json header(const BenchProblem& problem, const char* status) {
  return {{"schema", kSchema},
          {"problem", problem.name},
          {"level", problem.level},
          {"number", problem.number},
          {"path", problem.path},
          {"status", status},
          {"search", "none (baseline-only)"}};
}

}  // namespace

nlohmann::json baseline_outcome(const nlohmann::json& show) {
  const ProblemOutcome outcome = classify_problem(parse_class(show), gate::CascadeResult{});
  nlohmann::json out = to_json(outcome);
  out["ratio"] = 1.0;
  out["ratio_low"] = 1.0;
  out["ratio_high"] = 1.0;
  out["measured"] = false;
  out["note"] = outcome.outcome_class == "fallback"
                    ? "the baseline is returned by design; its speedup is 1.0 by construction"
                    : "no search ran (baseline-only run): the baseline is returned, speedup 1.0 "
                      "by construction";
  return out;
}

nlohmann::json search_outcome(const nlohmann::json& show, const SearchResult& search) {
  if (!search.error.empty() || !search.document.is_object() ||
      !search.document.contains("outcome")) {
    nlohmann::json out = baseline_outcome(show);
    out["reason"] = "search did not finish: " +
                    (search.error.empty() ? std::string("no outcome") : search.error);
    out["note"] = "the baseline is returned; speedup 1.0 by construction";
    return out;
  }
  nlohmann::json out = search.document.at("outcome");
  const bool measured = out.contains("ratio") && out.at("ratio").is_number();
  out["measured"] = measured;
  if (!measured) {
    // No candidate reached G4 (none proposed, or all rejected before it): the baseline stays.
    out["ratio"] = 1.0;
    out["ratio_low"] = 1.0;
    out["ratio_high"] = 1.0;
    out["note"] = "no candidate was timed: the baseline is returned, speedup 1.0 by construction";
  }
  return out;
}

nlohmann::json done_document(const BenchProblem& problem,
                             const nlohmann::json& show,
                             const ProblemCost& cost,
                             const std::optional<SearchResult>& search) {
  nlohmann::json doc = header(problem, "done");
  doc["outcome"] = search ? search_outcome(show, *search) : baseline_outcome(show);
  if (search) {
    doc["search"] = "beam search over recipes (kernelopt optimize, offline)";
    doc["optimize"] = search->document;
    if (!search->error.empty()) doc["search_error"] = search->error;
  }
  doc["error"] = nullptr;
  doc["cost"] = cost_json(cost);
  doc["show"] = show;
  return doc;
}

nlohmann::json failed_document(const BenchProblem& problem,
                               const std::string& tag,
                               const std::string& message,
                               const ProblemCost& cost) {
  nlohmann::json doc = header(problem, "failed");
  doc["outcome"] = {{"class", "failed"},    {"reason", failure_reason(tag)}, {"ratio", nullptr},
                    {"ratio_low", nullptr}, {"ratio_high", nullptr},         {"measured", false}};
  doc["error"] = {{"tag", tag}, {"message", message}};
  doc["cost"] = cost_json(cost);
  doc["show"] = nullptr;
  return doc;
}

std::string failure_reason(const std::string& tag) {
  static const std::map<std::string, std::string> reasons = {
      {"kernelopt.nogpu", "needs an NVIDIA GPU"},
      {"kernelopt.problem", "problem error"},
      {"kernelopt.timeout", "timed out"},
      {"kernelopt.crash", "worker crashed"},
      {"kernelopt.oom", "out of memory"}};
  const auto it = reasons.find(tag);
  return it == reasons.end() ? "error" : it->second;
}

}  // namespace kernelopt::engine
