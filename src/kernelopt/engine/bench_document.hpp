// The result document of one bench problem (RUN_DIR/problems/levelL_NAME.json, schema
// kernelopt.bench.problem/1, docs/bench.md): the show document, the outcome class and the cost.
// Pure functions: the runner and the tests build documents the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kernelopt/engine/bench_spec.hpp"

namespace kernelopt::engine {

// What one problem cost.
struct ProblemCost {
  double gpu_seconds = 0;       // wall time of its worker while it held a GPU; 0 without a GPU
  double wall_seconds = 0;      // from the problem's start to its document
  std::int64_t llm_tokens = 0;  // tokens sent to and received from the llm proposer's model
  std::optional<int> gpu;       // which visible GPU its worker used
  std::optional<std::int64_t> free_memory_bytes;  // GPU memory free when the problem started
  std::optional<std::int64_t> peak_memory_bytes;  // torch's peak allocation in its worker
  // With --search on an optimizable problem: the baseline's seconds (worker start, load,
  // compile, capture, timing) and the search's, from its start to its result.
  std::optional<double> baseline_seconds;
  std::optional<double> search_seconds;
};

// The outcome of a baseline-only run (no search) from a show document's dispatch class, by the
// same rules as engine::classify_problem with no candidate: no_triton_kernel -> fallback "no
// Triton kernel", vendor_dominated -> fallback "vendor-dominated", optimizable -> "matched
// (synthesis failed)". The returned module is the baseline, so the ratio is 1.0 [1.0, 1.0] and
// `measured` is false. Throws Error("kernelopt.input") for a document without a known class.
nlohmann::json baseline_outcome(const nlohmann::json& show);

// What the search did for a problem of a --search run (absent in a baseline-only run).
struct SearchResult {
  nlohmann::json document;  // optimize's result document (null when it did not finish)
  std::string error;        // why it did not finish ("" when it did)
};

// The outcome of a searched problem: optimize's outcome class, reason and G4 ratio with its
// interval (measured when a ratio is there); a search that did not finish keeps the baseline's
// class and says why in the reason.
nlohmann::json search_outcome(const nlohmann::json& show, const SearchResult& search);

// The document of a problem whose show pipeline finished (and, in a --search run, its search).
nlohmann::json done_document(const BenchProblem& problem,
                             const nlohmann::json& show,
                             const ProblemCost& cost,
                             const std::optional<SearchResult>& search = std::nullopt);

// The document of a problem that failed: the Error's tag and message; the outcome class is
// "failed" with a short reason derived from the tag (failure_reason).
nlohmann::json failed_document(const BenchProblem& problem,
                               const std::string& tag,
                               const std::string& message,
                               const ProblemCost& cost);

// The short reason of a failure, by the Error's tag: "needs an NVIDIA GPU", "problem error",
// "timed out", "worker crashed", "out of memory" or "error".
std::string failure_reason(const std::string& tag);

}  // namespace kernelopt::engine
