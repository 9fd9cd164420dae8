// The optimize loop (optimize.hpp). Its stages, in order: match (which proposers apply to each
// segment), prepare (load, capture, probe: the workbench), profile (times, floors, counters),
// then per segment, largest first, with its share of the budget: reuse (a verified replacement
// from the cache, re-checked by the gates) or search (plan, propose, gate, record, observe);
// then the chosen set through the gates together, timed again (confirmation, with the
// runner-ups), and emitted.
#include "kernelopt/engine/optimize.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/ask.hpp"
#include "kernelopt/engine/doctor.hpp"
#include "kernelopt/engine/optimize_stages.hpp"
#include "kernelopt/engine/profiling.hpp"
#include "kernelopt/engine/reuse.hpp"
#include "kernelopt/propose/llm.hpp"
#include "kernelopt/propose/registry.hpp"
#include "kernelopt/propose/transform/config.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

void apply_search_flags(const SearchFlags& flags, VerifyOptions& options) {
  options.beam.width = flags.no_beam ? 1 : flags.beam_width;
  options.beam.diversity = !flags.no_beam;
  options.beam.rounds = flags.rounds;
  options.beam.budget_s = flags.budget_s;
  options.memory = !flags.no_memory;
  options.counters = !flags.no_profile;
  if (flags.no_perf_gate) options.thresholds.min_ratio = 0.0;
  options.dispatch_aware = !flags.no_dispatch_aware;
  options.split_launches = flags.split_segments;
  options.use_cache = !flags.no_cache;
  options.cache_dir = flags.cache_dir;
  options.vendor = flags.vendor;
}

void configure_llm_flags(const SearchFlags& flags) {
  if (flags.llm.empty()) {
    if (!flags.llm_base_url.empty() || !flags.llm_record.empty() || !flags.llm_replay.empty() ||
        flags.llm_max_tokens != 0 || !flags.llm_price.empty()) {
      throw Error("kernelopt.usage", "the --llm-* flags need --llm PROVIDER:MODEL",
                  ExitCode::kUsage);
    }
    return;
  }
  propose::LlmConfig config;
  propose::parse_llm_spec(flags.llm, config);
  config.base_url = flags.llm_base_url;
  config.max_tokens = flags.llm_max_tokens;
  config.record_dir = flags.llm_record;
  config.replay_dir = flags.llm_replay;
  config.chains = flags.no_beam ? 1 : flags.beam_width;
  if (!flags.llm_price.empty()) {
    double in = 0;
    double out = 0;
    char tail = 0;
    if (std::sscanf(flags.llm_price.c_str(), "%lf,%lf%c", &in, &out, &tail) != 2 || in < 0 ||
        out < 0) {
      throw Error(
          "kernelopt.usage",
          fmt::format("--llm-price {}: expected IN,OUT (USD per million tokens)", flags.llm_price),
          ExitCode::kUsage);
    }
    config.price_in = in;
    config.price_out = out;
  }
  propose::require_llm_ready(config);
  config.python_dir = find_python_dir();
  propose::configure_llm(std::move(config));
}

std::string search_flags_text(const SearchFlags& flags) {
  const SearchFlags defaults;
  std::string text;
  if (flags.no_perf_gate) text += " --no-perf-gate";
  if (flags.no_beam) text += " --no-beam";
  if (!flags.no_beam && flags.beam_width != defaults.beam_width) {
    text += fmt::format(" --beam-width {}", flags.beam_width);
  }
  if (flags.rounds != defaults.rounds) text += fmt::format(" --rounds {}", flags.rounds);
  if (flags.budget_s != defaults.budget_s) text += fmt::format(" --budget {:g}", flags.budget_s);
  if (flags.no_profile) text += " --no-profile";
  if (flags.no_memory) text += " --no-memory";
  if (flags.no_dispatch_aware) text += " --no-dispatch-aware";
  if (flags.split_segments) text += " --split-segments";
  if (flags.no_cache) text += " --no-cache";
  if (flags.vendor) text += " --vendor";
  if (!flags.llm.empty()) text += " --llm " + flags.llm;
  if (!flags.llm_base_url.empty()) text += " --llm-base-url " + flags.llm_base_url;
  if (flags.llm_max_tokens != 0) text += fmt::format(" --llm-max-tokens {}", flags.llm_max_tokens);
  if (!flags.llm_replay.empty()) text += " --llm-replay " + flags.llm_replay;
  return text.empty() ? text : text.substr(1);
}

std::optional<std::chrono::seconds> counters_limit(double left_s, std::chrono::seconds timeout) {
  if (left_s < kMinCountersBudgetS) return std::nullopt;
  return std::min({timeout, std::chrono::seconds(120),
                   std::chrono::seconds(static_cast<std::int64_t>(left_s / 2))});
}

double search_budget(const VerifyOptions& options, std::chrono::steady_clock::time_point now) {
  if (!options.deadline) return options.beam.budget_s;
  const double left =
      std::chrono::duration<double>(*options.deadline - now).count() - kDeadlineMarginSeconds;
  return std::clamp(left, 0.0, options.beam.budget_s);
}

namespace {

// The proposers' first step: which recipe matches each segment (at most one), whether the
// config proposer can relaunch its kernel, whether the rewrite proposer can make it one pass, and
// what was said about every segment. A segment's strategies are its matches: "recipe:NAME",
// "config", "rewrite", "fuse", "split" and "retile".
std::map<int, std::vector<propose::Match>> match_segments(const Graphs& g,
                                                          const std::map<int, std::string>& skip,
                                                          nlohmann::json& said) {
  std::map<int, std::vector<propose::Match>> out;
  said = nlohmann::json::array();
  for (const analysis::Segment& seg : g.map.segments) {
    if (const auto why = skip.find(seg.id); why != skip.end()) {
      said.push_back({{"segment", seg.id}, {"recipe", nullptr}, {"skipped", why->second}});
      continue;
    }
    nlohmann::json row = {{"segment", seg.id}, {"recipe", nullptr}};
    for (auto& match : propose::match_strategies(g.runs[seg.graph].code, g.map, seg)) {
      if (propose::proposer_of(match) == "recipe") {
        row["recipe"] = match.recipe;
        row["params"] = match.params;
        row["why"] = match.why;
      } else {
        row[match.recipe] = match.why;  // "config", "rewrite", "fuse", "split" or "retile"
      }
      out[seg.id].push_back(std::move(match));
    }
    said.push_back(std::move(row));
  }
  return out;
}

// What the llm proposer's agents see of a segment besides its code: the problem, the tensors'
// shapes, strides and dtypes, the analyst's verdict, the roofline numbers and the counters.
nlohmann::json llm_context(const VerifyOptions& options,
                           Workbench& bench,
                           const Profiles& profiles,
                           int id) {
  nlohmann::json out = {{"problem", fs::path(options.problem).filename().string()},
                        {"interface", bench.candidate(id, "").tensors},
                        {"analysis", "(not profiled)"},
                        {"roofline", nlohmann::json::object()},
                        {"counters", nlohmann::json::object()}};
  const auto found = profiles.segments.find(id);
  if (found == profiles.segments.end()) return out;
  const search::SegmentProfile& p = found->second;
  const search::Analysis a = search::analyze(p);
  out["analysis"] = search::to_string(a.bottleneck) + ": " + a.why;
  out["roofline"] = {{"time_ms", p.time_ms}, {"share_of_gpu_time", p.share}};
  if (p.floor_ms) {
    out["roofline"]["floor_ms"] = *p.floor_ms;
    out["roofline"]["floor_kind"] = p.compute_floor ? "compute (fp32 peak)" : "memory (bandwidth)";
  }
  if (p.one_pass_floor_ms) out["roofline"]["one_pass_floor_ms"] = *p.one_pass_floor_ms;
  if (a.headroom) out["roofline"]["headroom"] = *a.headroom;
  if (p.counters) {
    const search::KernelCounters& c = *p.counters;
    out["counters"] = {{"sol_memory_pct", c.memory_pct},
                       {"sol_compute_pct", c.compute_pct},
                       {"achieved_occupancy_pct", c.achieved_occupancy},
                       {"theoretical_occupancy_pct", c.theoretical_occupancy},
                       {"registers_per_thread", c.registers},
                       {"grid_size", c.grid_size},
                       {"duration_us", c.duration_us}};
  }
  return out;
}

}  // namespace

nlohmann::json run_optimize(const VerifyOptions& options,
                            worker::Worker& worker,
                            const Progress& progress) {
  if (!fs::is_regular_file(options.problem)) {
    throw Error("kernelopt.problem", fmt::format("{}: no such file", options.problem),
                ExitCode::kProblem);
  }
  handshake(worker);
  require_gpu(worker, "kernelopt optimize");
  Search s;
  std::map<int, std::vector<propose::Match>> matches;
  Workbench bench(options, worker, progress, [&](const Graphs& graphs) {
    if (progress) progress("matching the proposers to the segments");
    matches = match_segments(graphs, options.skip, s.proposals);
    std::map<int, recompose::SegmentInterface> faces;
    for (const auto& [id, offered] : matches) {
      const analysis::Segment& seg = graphs.map.segments[static_cast<std::size_t>(id)];
      faces[id] = recompose::segment_interface(graphs.runs[seg.graph].code, graphs.map, seg);
    }
    return faces;
  });
  // The budget counts the worker's time from here: profiling, ncu and every candidate.
  const auto start = std::chrono::steady_clock::now();
  const auto spent = [start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const double budget_s = search_budget(options, start);
  Profiles profiles = profile_segments(
      options, worker, bench, matches, [&] { return budget_s - spent(); }, progress);
  s.counters = profiles.counters_note;
  // A whole segment's launches, ordered by what each could give, for the search's neighbours.
  for (auto& [id, offered] : matches) {
    propose::set_launch_potentials(offered,
                                   bench.graphs().map.segments[static_cast<std::size_t>(id)],
                                   bench.graphs().map, profiles.launches);
    if (propose::llm_config()) {
      propose::add_llm_context(offered, llm_context(options, bench, profiles, id));
    }
  }
  std::optional<store::Cache> cache = open_cache(options, progress);
  worker::Client client = raising_client(worker, options.problem);
  const nlohmann::json env =
      cache
          ? client.env({}, std::chrono::duration_cast<std::chrono::milliseconds>(options.timeout))
                ->document
          : nlohmann::json();
  search_segments(options, bench, cache, env, matches, profiles, spent, budget_s, s, progress);
  const bool vendor = options.vendor && options.thresholds.min_ratio > 0.0;
  if (s.chosen.empty() && !vendor) return nothing_chosen(options, bench, s);
  std::vector<gate::Candidate> candidates = s.chosen;
  gate::CascadeResult result;
  nlohmann::json confirmation;
  if (!candidates.empty()) {
    if (progress) progress("running the gates");
    result = bench.cascade().run(candidates);
    if (result.accepted && options.thresholds.min_ratio > 0.0) {
      confirmation = confirm_choice_set(bench, s, result, candidates, progress);
    }
    if (cache && !confirmation.is_null() && confirmation.value("confirmed", false)) {
      record_verified(*cache, options, bench, s, accepted_of(result, candidates));
    }
  }
  nlohmann::json vendor_doc;
  if (vendor) vendor_doc = tune_vendor(options, worker, bench, result, candidates, progress);
  // Nothing of the search's and no knob accepted: the search's own verdict.
  if (candidates.empty() && !result.accepted) return nothing_chosen(options, bench, s, vendor_doc);
  return finish_run(
      options, bench, result, candidates,
      [&](nlohmann::json& doc) {
        add_search(doc, s);
        if (!confirmation.is_null()) doc["confirmation"] = confirmation;
        if (vendor) doc["vendor"] = vendor_doc;
      },
      "optimize.json");
}

}  // namespace kernelopt::engine
