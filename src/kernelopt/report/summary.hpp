// summary.json of a bench run (schema kernelopt.bench.summary/1, docs/bench.md): one row per
// problem and the paper's Table 1 aggregates per level and overall. A pure function of the
// problem documents (engine/bench_document.hpp), so a report can be rebuilt from them at any time.
#pragma once

#include <array>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kernelopt::report {

// The outcome classes in Table 1's column order; "failed" is a problem that produced no module
// (a bad problem file, no GPU, a timeout, a crash).
inline constexpr std::array<const char*, 5> kOutcomeClasses = {
    "optimized", "matched (optimized)", "matched (synthesis failed)", "fallback", "failed"};

// The fallback reasons of DESIGN section 4, in the table's column order.
inline constexpr std::array<const char*, 4> kFallbackReasons = {
    "vendor-dominated", "no Triton kernel", "rejected by the performance gate",
    "model-level correctness"};

// The speedup bins of the long tail: [5, inf), [2, 5), [1.01, 2).
inline constexpr std::array<const char*, 3> kLongTailBins = {"ge_5x", "2x_to_5x", "1.01x_to_2x"};

// One problem's row of summary.json from its document.
nlohmann::json summary_row(const nlohmann::json& document);

// The whole summary: rows sorted by level and number, aggregates per level and overall.
// Geomeans count every problem that has a speedup (fallbacks at their ratio); failed problems have
// none and are counted apart. Never throws on missing numbers: they are null in the output.
nlohmann::json summarize(const std::vector<nlohmann::json>& documents);

// The aggregates over some rows (as in summary["overall"]).
nlohmann::json aggregate(const std::vector<nlohmann::json>& rows);

// exp(mean(log x)) over positive values; null when there are none.
nlohmann::json geomean(const std::vector<double>& values);

}  // namespace kernelopt::report
