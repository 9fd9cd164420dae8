// The fuse strategy's match: a segment's pointwise producer whose output only later launches of
// the segment read, inlined into each of them (fuse.cpp), a persistent norm first split in two
// (split_norm.cpp); the segment's other launches relaunched as config relaunches them.
#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/propose/transform/fuse.hpp"
#include "kernelopt/propose/transform/relaunch.hpp"
#include "kernelopt/propose/transform/rewrite.hpp"

namespace kernelopt::propose {

namespace {

// A launch's arguments with `extra` after its last pointer argument (the last one with a root).
nlohmann::json args_with(const nlohmann::json& args, const nlohmann::json& extra) {
  std::size_t last_pointer = 0;
  for (std::size_t a = 0; a < args.size(); ++a) {
    if (args[a].contains("root")) last_pointer = a;
  }
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t a = 0; a < args.size(); ++a) {
    out.push_back(args[a]);
    if (a == last_pointer) out.insert(out.end(), extra.begin(), extra.end());
  }
  return out;
}

}  // namespace

std::optional<Match> match_fuse(const inductor::OutputCode& code,
                                const analysis::DispatchMap& map,
                                const analysis::Segment& segment) {
  if (segment.extern_call || segment.launches.size() < 2) return std::nullopt;
  const auto all = segment_relaunches(code, map, segment);
  if (!all) return std::nullopt;
  const std::vector<nlohmann::json>& relaunches = *all;
  const auto contains = [](const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  for (std::size_t i = 0; i + 1 < relaunches.size(); ++i) {
    const nlohmann::json& p = relaunches[i];
    const bool persistent = p.at("kind") == "persistent_reduction";
    if ((p.at("kind") != "pointwise" && !persistent) || p.at("grid") != 1) continue;
    const analysis::Launch& p_launch = map.launches[static_cast<std::size_t>(segment.launches[i])];
    // The intermediate: the one buffer P writes, dead after the segment.
    if (p_launch.writes.size() != 1) continue;
    const std::string buffer = p_launch.writes.front();
    if (contains(segment.outputs, buffer) || contains(code.returns, buffer) ||
        contains(code.graph_inputs, buffer)) {
      continue;
    }
    // Its consumers: the later launches of the segment that read it. No launch from P to the
    // last of them may write what P reads (P's reads move to the consumers' time), nor may any
    // statement after P other than a consumer read it.
    std::vector<std::size_t> consumers;
    for (std::size_t j = i + 1; j < relaunches.size(); ++j) {
      const analysis::Launch& l = map.launches[static_cast<std::size_t>(segment.launches[j])];
      if (contains(l.reads, buffer)) consumers.push_back(j);
    }
    if (consumers.empty()) continue;
    std::set<int> consumer_steps;
    for (const std::size_t j : consumers) {
      consumer_steps.insert(map.launches[static_cast<std::size_t>(segment.launches[j])].step);
    }
    bool unsafe = false;
    for (std::size_t s = static_cast<std::size_t>(p_launch.step) + 1; s < code.steps.size(); ++s) {
      if (consumer_steps.count(static_cast<int>(s)) == 0 && contains(code.steps[s].reads, buffer)) {
        unsafe = true;
      }
    }
    for (std::size_t j = i + 1; j <= consumers.back(); ++j) {
      const analysis::Launch& l = map.launches[static_cast<std::size_t>(segment.launches[j])];
      for (const auto& name : l.writes) {
        unsafe = unsafe || contains(p_launch.reads, name) || name == buffer;
      }
    }
    if (unsafe) continue;
    const inductor::TritonKernel* p_kernel = code.kernel(p.at("kernel").get<std::string>());
    if (p_kernel == nullptr) continue;
    // A persistent norm stays, storing only its rows' statistics; its apply step is what is
    // inlined, reading them.
    std::optional<SplitNorm> split;
    nlohmann::json stats_args = nlohmann::json::array();
    if (persistent) {
      split = split_persistent(p_kernel->source, p.at("source").get<std::string>());
      if (!split) continue;
      for (std::size_t k = 0; k < split->stats.size(); ++k) {
        stats_args.push_back({{"param", fmt::format("out_ptr_stats{}", k)},
                              {"from", "internal"},
                              {"root", fmt::format("ko_stats{}_{}", k, buffer)},
                              {"shape", {std::to_string(split->rows)}},
                              {"stride", {"1"}},
                              {"dtype", "torch.float32"}});
      }
    }
    const std::string& p_source = split ? split->apply_source : p_kernel->source;
    std::map<std::size_t, nlohmann::json> fused;
    int loads = 0;
    int merged = 0;  // the copies' statements computed once (straight_line.cpp)
    std::vector<std::string> names;
    for (const std::size_t j : consumers) {
      const nlohmann::json& c = relaunches[j];
      std::string c_param;
      int bound = 0;
      for (const auto& arg : c.at("args")) {
        if (arg.contains("root") && arg.at("root") == buffer) {
          c_param = arg.at("param").get<std::string>();
          ++bound;
        }
      }
      const inductor::TritonKernel* c_kernel = code.kernel(c.at("kernel").get<std::string>());
      if (bound != 1 || c_kernel == nullptr) break;
      const auto inlined = inline_producer(p_source, c_kernel->source, c_param);
      if (!inlined) break;
      // The fused launch: C's arguments, then P's pointers (in P's order) after C's pointers,
      // then a split norm's statistics.
      nlohmann::json extra = nlohmann::json::array();
      for (const auto& arg : p.at("args")) {
        if (!arg.contains("root") || arg.at("root") == buffer) continue;
        nlohmann::json renamed = arg;
        renamed["param"] = "fused_" + arg.at("param").get<std::string>();
        extra.push_back(renamed);
      }
      for (std::size_t k = 0; k < stats_args.size(); ++k) {
        nlohmann::json renamed = stats_args[k];
        renamed["param"] = fmt::format("fused_in_ptr_stats{}", k);
        extra.push_back(renamed);
      }
      if (extra.size() != inlined->new_params.size()) break;
      nlohmann::json f = c;
      f["inlined_loads"] = inlined->loads;
      f["inlined_cost"] = inlined->cost;
      f["args"] = args_with(c.at("args"), extra);
      f["kernel"] = inlined->kernel;
      f["source"] = inlined->source;
      f["fused"] = true;
      fused[j] = std::move(f);
      loads += inlined->loads;
      merged += inlined->merged;
      names.push_back(c.at("kernel").get<std::string>());
    }
    if (fused.size() != consumers.size()) continue;
    nlohmann::json launches = nlohmann::json::array();
    for (std::size_t r = 0; r < relaunches.size(); ++r) {
      if (r == i && split) {
        // The statistics kernel: P's arguments with the statistics after its pointers.
        nlohmann::json stats = p;
        stats["args"] = args_with(p.at("args"), stats_args);
        stats["source"] = split->stats_source;
        stats["split"] = true;
        launches.push_back(std::move(stats));
        continue;
      }
      if (r == i) continue;
      launches.push_back(fused.count(r) != 0 ? fused.at(r) : relaunches[r]);
    }
    // The arithmetic rewrite too (cheap_math.cpp: Mish with one exponential), in every launch but
    // a template.
    int mish = 0;
    for (auto& launch : launches) {
      mish += cheaper_math_launch(launch);
    }
    nlohmann::json params = {{"launches", launches}, {"producer", p.at("kernel")},
                             {"consumers", names},   {"buffer", buffer},
                             {"loads", loads},       {"mish", mish},
                             {"merged", merged}};
    const std::string tidied =
        merged > 0 ? fmt::format(" (the copies' repeated statements computed once: {})", merged)
                   : "";
    if (split) {
      params["split"] = split->stats;
      return Match{
          "fuse", params,
          fmt::format("{} split: its rows' statistics ({}) stored, its normalized rows computed "
                      "inside {} at {} loads of {}: {} is no longer written and reread{}",
                      p.at("kernel").get<std::string>(), fmt::join(split->stats, ", "),
                      fmt::join(names, " and "), loads, buffer, buffer, tidied)};
    }
    return Match{
        "fuse", params,
        fmt::format("{} inlined into {} at {} loads of {}: {} is no longer written and reread{}",
                    p.at("kernel").get<std::string>(), fmt::join(names, " and "), loads, buffer,
                    buffer, tidied)};
  }
  return std::nullopt;
}

}  // namespace kernelopt::propose
