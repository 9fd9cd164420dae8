// The retile strategy (retile.cpp writes the kernels): the launch of a retiled reduction, its
// settings and their limits, and the match on top of the segment's other rewrites.
#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/propose/transform/config.hpp"
#include "kernelopt/propose/transform/fuse.hpp"
#include "kernelopt/propose/transform/on_base.hpp"
#include "kernelopt/propose/transform/relaunch.hpp"
#include "kernelopt/propose/transform/retile.hpp"
#include "kernelopt/propose/transform/rewrite.hpp"
#include "kernelopt/propose/transform/split.hpp"

namespace kernelopt::propose {

namespace {

// The retile's geometry of a launch: its chunks of CHUNK spatial rows and the combine's partials
// a row.
struct Chunks {
  std::int64_t chunk, count, split;
};

Chunks chunks_of(const nlohmann::json& t,
                 const nlohmann::json& settings,
                 const std::string& prefix) {
  const std::int64_t spatial = t.at("spatial").get<std::int64_t>();
  const std::int64_t chunk = std::max<std::int64_t>(1, settings.value(prefix + "CHUNK", 512));
  const std::int64_t count = (spatial + chunk - 1) / chunk;
  return {chunk, count, count * t.at("per_chunk").get<std::int64_t>()};
}

}  // namespace

bool retile_fits(const nlohmann::json& p, const nlohmann::json& settings) {
  if (!p.contains("split_reduction") || !p.at("split_reduction").contains("retile")) return true;
  const auto& t = p.at("split_reduction").at("retile");
  const std::int64_t sb = settings.value("SB", 1);
  const std::int64_t cb = t.at("channel_block").get<std::int64_t>();
  const Chunks c = chunks_of(t, settings, "");
  return sb >= 1 && sb * cb <= kRetileMostTile && c.chunk >= sb && c.split <= kRetileMostPartials;
}

std::string retile_launch_text(const nlohmann::json& p,
                               const nlohmann::json& settings,
                               const std::string& prefix,
                               std::map<std::string, std::string>& tensors,
                               std::string& body) {
  const auto& t = p.at("split_reduction").at("retile");
  const Chunks c = chunks_of(t, settings, prefix);
  const std::vector<std::string> call_args = bind_args(p, tensors, body);
  std::vector<std::string> parts;
  const std::string combine = split_combine_launch(p, call_args, prefix, c.split, parts, body);
  if (combine.empty()) return "";
  return fmt::format(
             "    {k}_retile_partial[({programs}, 1, 1)]({args}, {parts}, {chunk}, {count}, "
             "SB={sb}, CB={cb}, num_warps={warps}, num_stages={stages})\n",
             fmt::arg("k", p.at("kernel").get<std::string>()),
             fmt::arg("programs", t.at("samples").get<std::int64_t>() * c.count),
             fmt::arg("args", fmt::join(call_args, ", ")),
             fmt::arg("parts", fmt::join(parts, ", ")), fmt::arg("chunk", c.chunk),
             fmt::arg("count", c.count), fmt::arg("sb", settings.value(prefix + "SB", 16)),
             fmt::arg("cb", t.at("channel_block").get<std::int64_t>()),
             fmt::arg("warps", settings.value(prefix + "num_warps", 4)),
             fmt::arg("stages", settings.value(prefix + "num_stages", 1))) +
         combine;
}

namespace {

// Starting settings: tiles of 512 to 4096 elements over 256 to 1024 spatial rows a program (the
// micro-benchmark's best on L2/85, 19, 21 and 17's shapes were among them), each CHUNK raised
// until the combine's partials a row fit.
std::vector<nlohmann::json> retile_settings(const nlohmann::json& launch) {
  const auto& t = launch.at("split_reduction").at("retile");
  const std::int64_t cb = t.at("channel_block").get<std::int64_t>();
  std::vector<nlohmann::json> out;
  for (const auto& [elements, chunk, warps] :
       std::vector<std::tuple<std::int64_t, std::int64_t, int>>{
           {1024, 256, 4}, {2048, 512, 4}, {4096, 512, 4}, {4096, 1024, 8}, {512, 256, 4}}) {
    nlohmann::json s = {{"SB", std::max<std::int64_t>(1, elements / cb)},
                        {"CHUNK", chunk},
                        {"num_warps", warps},
                        {"num_stages", 1}};
    s["CHUNK"] = std::max(s["CHUNK"].get<std::int64_t>(), s["SB"].get<std::int64_t>());
    while (!retile_fits(launch, s) && s["CHUNK"].get<std::int64_t>() < (std::int64_t{1} << 24)) {
      s["CHUNK"] = s["CHUNK"].get<std::int64_t>() * 2;
    }
    if (retile_fits(launch, s) && std::find(out.begin(), out.end(), s) == out.end()) {
      out.push_back(std::move(s));
    }
  }
  return out;
}

std::optional<Match> retile_on(const std::optional<Match>& base, const std::string& on) {
  if (!base || base->params.value("kind", "") == "template") return std::nullopt;
  nlohmann::json launches = base->params.contains("launches")
                                ? base->params.at("launches")
                                : nlohmann::json::array({base->params});
  std::vector<std::string> what;
  for (auto& launch : launches) {
    if (launch.value("kind", "") != "reduction" || !launch.contains("numels") ||
        launch.contains("fixed") || launch.contains("split_reduction")) {
      continue;
    }
    std::string source = launch.at("source").get<std::string>();
    if (auto s = shifted_sums_source(source)) source = s->source;
    const bool sums = source.find("_dx = tl.where(") != std::string::npos;
    const auto tile = retile_reduction_source(source);
    if (!tile || tile->samples * tile->spatial * tile->channels < kRetileLeastElements) {
      continue;
    }
    launch["source"] = tile->split.source;
    launch["split_reduction"] = {{"partials", tile->split.partials},
                                 {"dtype", tile->split.dtype},
                                 {"reductions", tile->split.reductions},
                                 {"shifted_sums", sums},
                                 {"retile",
                                  {{"groups", tile->groups},
                                   {"channels", tile->channels},
                                   {"samples", tile->samples},
                                   {"spatial", tile->spatial},
                                   {"per_chunk", tile->per_chunk},
                                   {"channel_block", next_power_of_two(tile->channels)}}}};
    launch["settings"] = retile_settings(launch);
    if (launch["settings"].empty()) return std::nullopt;
    what.push_back(fmt::format("{} ({} samples x {} groups, {} spatial x {} channels{})",
                               launch.at("kernel").get<std::string>(), tile->samples, tile->groups,
                               tile->spatial, tile->channels,
                               sums ? ", its Welford loop as shifted sums" : ""));
  }
  if (what.empty()) return std::nullopt;
  // The other launches keep their first setting (the one Inductor's autotuner chose, where the
  // capture read it) while the beam's first round tries the retiled launch's starts: fuse_settings
  // pairs the launches' j-th settings, and a pointwise kernel's other starts were 0.42-0.45x on
  // L2/19, which would hide what the retile gives.
  for (auto& launch : launches) {
    if (launch.contains("split_reduction") || launch.contains("settings")) continue;
    const auto own = config_settings(Match{"config", launch, ""});
    if (!own.empty()) launch["settings"] = nlohmann::json::array({own.front()});
  }
  return on_base_match(
      base, on, std::move(launches), "retile",
      fmt::format("Inductor's looped reduction over a channels-last tensor {} retiled: each "
                  "program reduces one sample's chunk of spatial rows in tiles [spatial, "
                  "channels] read in memory order, and a second kernel combines the chunks and "
                  "channels of each row",
                  fmt::join(what, "; ")));
}

}  // namespace

std::optional<Match> retile_of(const std::optional<Match>& fuse,
                               const std::optional<Match>& rewrite,
                               const std::optional<Match>& config) {
  return first_on_base(fuse, rewrite, config, retile_on);
}

std::optional<Match> match_retile(const inductor::OutputCode& code,
                                  const analysis::DispatchMap& map,
                                  const analysis::Segment& segment) {
  return retile_of(match_fuse(code, map, segment), match_rewrite(code, map, segment),
                   match_config(code, map, segment));
}

}  // namespace kernelopt::propose
