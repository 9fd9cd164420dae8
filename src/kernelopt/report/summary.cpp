#include "kernelopt/report/summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

namespace kernelopt::report {

namespace {

constexpr const char* kBaselineOnlyNote =
    "No search ran: every returned module is the torch.compile baseline itself, so its speedup "
    "is 1.0 by construction, not a measured ratio";
constexpr const char* kNoReplacementNote =
    "The search ran, and no problem took a replacement: every returned module is the "
    "torch.compile baseline, at 1.0";

nlohmann::json number_or_null(const nlohmann::json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object.at(key).is_number()) return nullptr;
  return object.at(key);
}

// Sum of segment floors (a segment's own time when its floor is unknown) plus the time of every
// launch outside a segment (extern and ATen calls): the model's time if every Triton segment ran
// at its floor. On the launch-time basis (launch_sum_ms). Null without launches.
nlohmann::json floor_ms(const nlohmann::json& show) {
  if (!show.is_object() || !show.contains("launches") || show.at("launches").empty()) {
    return nullptr;
  }
  double floor = 0;
  for (const auto& segment : show.at("segments")) {
    const nlohmann::json f = number_or_null(segment, "floor_ms");
    floor += f.is_number() ? f.get<double>() : segment.value("time_ms", 0.0);
  }
  for (const auto& launch : show.at("launches")) {
    if (launch.value("dispatch", "") != "triton") floor += launch.value("time_ms", 0.0);
  }
  return floor;
}

nlohmann::json ratio(const nlohmann::json& numerator, const nlohmann::json& denominator) {
  if (!numerator.is_number() || !denominator.is_number() || denominator.get<double>() <= 0) {
    return nullptr;
  }
  return numerator.get<double>() / denominator.get<double>();
}

// The median of `values` (the mean of the middle two for an even count); null when empty.
nlohmann::json median(std::vector<double> values) {
  if (values.empty()) return nullptr;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

std::string long_tail_bin(double speedup) {
  if (speedup >= 5.0) return kLongTailBins[0];
  if (speedup >= 2.0) return kLongTailBins[1];
  if (speedup >= 1.01) return kLongTailBins[2];
  return "";
}

nlohmann::json counts(const std::vector<nlohmann::json>& rows,
                      const char* key,
                      const std::string& only_class,
                      const std::vector<std::string>& always) {
  nlohmann::json out = nlohmann::json::object();
  for (const std::string& name : always) {
    out[name] = 0;
  }
  for (const auto& row : rows) {
    if (!only_class.empty() && row.value("class", "") != only_class) continue;
    if (!row.contains(key) || !row.at(key).is_string()) continue;
    const std::string name = row.at(key).get<std::string>();
    out[name] = out.value(name, 0) + 1;
  }
  return out;
}

// Per Ray node, sorted by name: its problems and their GPU- and wall seconds added up. Empty when
// no problem ran on a Ray node.
nlohmann::json node_costs(const std::vector<nlohmann::json>& rows) {
  std::map<std::string, nlohmann::json> nodes;
  for (const auto& row : rows) {
    if (!row["node"].is_string()) continue;
    nlohmann::json& node = nodes[row["node"].get<std::string>()];
    if (node.is_null()) node = {{"problems", 0}, {"gpu_seconds", 0.0}, {"wall_seconds", 0.0}};
    node["problems"] = node["problems"].get<int>() + 1;
    node["gpu_seconds"] = node["gpu_seconds"].get<double>() + row.value("gpu_seconds", 0.0);
    node["wall_seconds"] = node["wall_seconds"].get<double>() + row.value("wall_seconds", 0.0);
  }
  nlohmann::json out = nlohmann::json::array();
  for (auto& [name, node] : nodes) {
    node["node"] = name;
    out.push_back(node);
  }
  return out;
}

}  // namespace

nlohmann::json geomean(const std::vector<double>& values) {
  double sum = 0;
  int n = 0;
  for (const double v : values) {
    if (v > 0 && std::isfinite(v)) {
      sum += std::log(v);
      ++n;
    }
  }
  if (n == 0) return nullptr;
  return std::exp(sum / n);
}

nlohmann::json summary_row(const nlohmann::json& doc) {
  const nlohmann::json outcome = doc.value("outcome", nlohmann::json::object());
  const nlohmann::json cost = doc.value("cost", nlohmann::json::object());
  const nlohmann::json show = doc.value("show", nlohmann::json());
  nlohmann::json row;
  row["problem"] = doc.value("problem", "?");
  row["level"] = doc.value("level", nlohmann::json());
  row["number"] = doc.value("number", nlohmann::json());
  row["status"] = doc.value("status", "failed");
  // bench writes "none (baseline-only)" without --search, the search's name with it.
  const std::string search = doc.value("search", "");
  row["searched"] = !search.empty() && search.rfind("none", 0) != 0;
  row["class"] = outcome.value("class", "failed");
  row["reason"] = outcome.value("reason", "");
  row["dispatch_class"] = show.is_object() ? show.value("class", nlohmann::json()) : nullptr;
  row["baseline_ms"] = number_or_null(show, "replay_ms");
  row["cudagraphs_ms"] = number_or_null(show, "cudagraphs_ms");
  row["compiled_ms"] = number_or_null(show, "compiled_ms");
  row["eager_ms"] = number_or_null(show, "eager_ms");
  row["speedup"] = number_or_null(outcome, "ratio");
  row["speedup_low"] = number_or_null(outcome, "ratio_low");
  row["speedup_high"] = number_or_null(outcome, "ratio_high");
  row["speedup_measured"] = outcome.value("measured", false);
  row["optimized_ms"] = ratio(row["baseline_ms"], row["speedup"]);
  row["floor_ms"] = floor_ms(show);
  row["headroom_before"] = ratio(number_or_null(show, "launch_sum_ms"), row["floor_ms"]);
  row["headroom_after"] = ratio(row["headroom_before"], row["speedup"]);
  row["triton_share"] = number_or_null(show, "triton_share");
  row["gpu_seconds"] = cost.value("gpu_seconds", 0.0);
  row["wall_seconds"] = cost.value("wall_seconds", 0.0);
  row["search_seconds"] = number_or_null(cost, "search_seconds");
  row["llm_tokens"] = cost.value("llm_tokens", 0);
  // The vendor knobs the accepted module runs under (--vendor); null where the stage did not run.
  const nlohmann::json optimize = doc.value("optimize", nlohmann::json());
  const nlohmann::json vendor =
      optimize.is_object() ? optimize.value("vendor", nlohmann::json()) : nlohmann::json();
  row["vendor_knobs"] =
      vendor.is_object() ? vendor.value("kept", nlohmann::json::array()) : nlohmann::json(nullptr);
  // The Ray node that ran the problem (bench --executor ray); null when it ran on the head.
  row["node"] = cost.contains("node") && cost.at("node").is_string() ? cost.at("node")
                                                                     : nlohmann::json(nullptr);
  const nlohmann::json error = doc.value("error", nlohmann::json());
  row["error"] =
      error.is_object() ? nlohmann::json(error.value("message", "")) : nlohmann::json(nullptr);
  return row;
}

nlohmann::json aggregate(const std::vector<nlohmann::json>& rows) {
  std::vector<std::string> classes(kOutcomeClasses.begin(), kOutcomeClasses.end());
  std::vector<std::string> reasons(kFallbackReasons.begin(), kFallbackReasons.end());
  std::vector<double> speedups;
  std::vector<double> optimized;
  nlohmann::json tail = nlohmann::json::object();
  for (const char* bin : kLongTailBins) {
    tail[bin] = 0;
  }
  double gpu_seconds = 0;
  double wall_seconds = 0;
  std::int64_t tokens = 0;
  std::vector<double> per_problem;
  std::vector<double> per_search;
  nlohmann::json knobs_won = nlohmann::json::object();
  for (const auto& row : rows) {
    if (row.contains("vendor_knobs") && row.at("vendor_knobs").is_array()) {
      for (const auto& knob : row.at("vendor_knobs")) {
        if (!knob.is_string()) continue;
        const auto name = knob.get<std::string>();
        knobs_won[name] = knobs_won.value(name, 0) + 1;
      }
    }
    gpu_seconds += row.value("gpu_seconds", 0.0);
    per_problem.push_back(row.value("gpu_seconds", 0.0));
    if (row.contains("search_seconds") && row.at("search_seconds").is_number()) {
      per_search.push_back(row.at("search_seconds").get<double>());
    }
    wall_seconds += row.value("wall_seconds", 0.0);
    tokens += row.value("llm_tokens", std::int64_t{0});
    if (!row["speedup"].is_number()) continue;
    const double s = row["speedup"].get<double>();
    speedups.push_back(s);
    if (row.value("class", "") == "optimized") optimized.push_back(s);
    if (const std::string bin = long_tail_bin(s); !bin.empty()) {
      tail[bin] = tail[bin].get<int>() + 1;
    }
  }
  nlohmann::json out;
  out["problems"] = rows.size();
  out["classes"] = counts(rows, "class", "", classes);
  out["fallback_reasons"] = counts(rows, "reason", "fallback", reasons);
  out["failure_reasons"] = counts(rows, "reason", "failed", {});
  out["dispatch_classes"] =
      counts(rows, "dispatch_class", "", {"no_triton_kernel", "vendor_dominated", "optimizable"});
  out["vendor_knobs_won"] = knobs_won;
  out["speedup_problems"] = speedups.size();
  out["geomean_speedup"] = geomean(speedups);
  out["geomean_speedup_optimized"] = geomean(optimized);
  out["optimized_rate"] = rows.empty() ? nlohmann::json(nullptr)
                                       : nlohmann::json(static_cast<double>(optimized.size()) /
                                                        static_cast<double>(rows.size()));
  out["long_tail"] = tail;
  out["gpu_seconds"] = gpu_seconds;
  out["gpu_hours"] = gpu_seconds / 3600.0;
  out["median_gpu_seconds"] = median(per_problem);
  // Over the problems whose search ran and recorded its own seconds (not the baseline's compile).
  out["searched_problems_timed"] = per_search.size();
  out["median_search_seconds"] = median(per_search);
  out["wall_seconds"] = wall_seconds;
  out["llm_tokens"] = tokens;
  return out;
}

nlohmann::json summarize(const std::vector<nlohmann::json>& documents) {
  std::vector<nlohmann::json> rows;
  rows.reserve(documents.size());
  for (const auto& doc : documents) {
    rows.push_back(summary_row(doc));
  }
  auto key = [](const nlohmann::json& r) {
    return std::make_tuple(r["level"].is_number() ? r["level"].get<int>() : 0,
                           r["number"].is_number() ? r["number"].get<int>() : 0,
                           r.value("problem", ""));
  };
  std::sort(rows.begin(), rows.end(),
            [&](const nlohmann::json& a, const nlohmann::json& b) { return key(a) < key(b); });
  std::set<int> levels;
  bool measured = false;
  bool searched = false;
  for (const auto& r : rows) {
    if (r["level"].is_number()) levels.insert(r["level"].get<int>());
    measured = measured || r.value("speedup_measured", false);
    searched = searched || r.value("searched", false);
  }
  nlohmann::json out;
  out["schema"] = "kernelopt.bench.summary/1";
  out["baseline_only"] = !measured && !searched;
  out["note"] = measured   ? nlohmann::json(nullptr)
                : searched ? nlohmann::json(kNoReplacementNote)
                           : nlohmann::json(kBaselineOnlyNote);
  out["problems"] = rows;
  out["levels"] = nlohmann::json::array();
  for (const int level : levels) {
    std::vector<nlohmann::json> subset;
    std::copy_if(rows.begin(), rows.end(), std::back_inserter(subset),
                 [level](const nlohmann::json& r) { return r["level"] == level; });
    nlohmann::json entry = {{"level", level}};
    entry.update(aggregate(subset));
    out["levels"].push_back(entry);
  }
  out["overall"] = aggregate(rows);
  const nlohmann::json nodes = node_costs(rows);
  if (!nodes.empty()) out["nodes"] = nodes;
  return out;
}

}  // namespace kernelopt::report
