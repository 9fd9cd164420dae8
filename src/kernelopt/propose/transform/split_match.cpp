// The split strategy (split.cpp writes the kernels): the launch of a split reduction, its
// starting settings, and the match on top of the segment's other rewrites.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
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

// A partial's programs: SPLIT chunks of the row, each a whole multiple of R0_BLOCK; fewer where
// the last ones would be empty.
std::int64_t chunk_of(std::int64_t row, std::int64_t split, std::int64_t block) {
  const std::int64_t per = (row + split - 1) / split;
  return (per + block - 1) / block * block;
}

}  // namespace

std::string split_launch_text(const nlohmann::json& p,
                              const nlohmann::json& settings,
                              const std::string& prefix,
                              std::map<std::string, std::string>& tensors,
                              std::string& body) {
  // Inductor's arguments bound as config binds them, then the partial buffers, the partial launch
  // and the combine.
  if (p.at("split_reduction").contains("retile")) {
    return retile_launch_text(p, settings, prefix, tensors, body);
  }
  const std::string kernel = p.at("kernel").get<std::string>();
  const auto& numels = p.at("numels");
  const std::int64_t rows = numels.at("xnumel").get<std::int64_t>();
  const std::int64_t row = numels.at("r0_numel").get<std::int64_t>();
  const std::int64_t block = settings.value(prefix + "R0_BLOCK", std::int64_t{1024});
  const std::int64_t xblock = settings.value(prefix + "XBLOCK", std::int64_t{1});
  const std::int64_t asked = std::max<std::int64_t>(1, settings.value(prefix + "SPLIT", 4));
  const std::int64_t chunk = chunk_of(row, asked, block);
  const std::int64_t split = (row + chunk - 1) / chunk;
  const int count = p.at("split_reduction").at("partials").get<int>();
  const std::string dtype = p.at("split_reduction").at("dtype").get<std::string>();
  const std::vector<std::string> call_args = bind_args(p, tensors, body);
  // The partials live on the device of the launch's first tensor.
  const auto tensor = std::find_if(call_args.begin(), call_args.end(),
                                   [](const std::string& a) { return a.rfind("_t", 0) == 0; });
  if (tensor == call_args.end()) return "";
  const std::string& device = *tensor;
  const std::int64_t split_block = std::max<std::int64_t>(2, next_power_of_two(split));
  if (p.at("split_reduction").value("walks", false)) {
    // One buffer of [partials, SPLIT, rows]; row_two_pass's launch_split runs the kernel on
    // resident programs with the barrier, else (the interpreter) as its two phases.
    const std::int64_t xblocks = (rows + xblock - 1) / xblock;
    const std::string var = fmt::format("_{}part", prefix);
    const auto warps = settings.value(prefix + "num_warps", 4);
    body += fmt::format("    {} = torch.empty(({},), dtype={}, device={}.device)\n", var,
                        count * split * rows, dtype, device);
    return fmt::format(
        "    from kernelopt.recipes.row_two_pass import launch_split as _kernelopt_launch_split\n"
        "    _kernelopt_launch_split({k}_split_walks, ({args},), {var}, ({chunk}, {xblocks}), "
        "dict(XBLOCK={xb}, R0_BLOCK={block}, SPLIT={split}, SPLIT_BLOCK={sb}, num_warps={warps}, "
        "num_stages={stages}), {xblocks}, {split}, {warps}, {resident}, {device}.device)\n",
        fmt::arg("k", kernel), fmt::arg("args", fmt::join(call_args, ", ")), fmt::arg("var", var),
        fmt::arg("chunk", chunk), fmt::arg("xblocks", xblocks), fmt::arg("xb", xblock),
        fmt::arg("block", block), fmt::arg("split", split), fmt::arg("sb", split_block),
        fmt::arg("warps", warps), fmt::arg("stages", settings.value(prefix + "num_stages", 1)),
        fmt::arg("resident", settings.value(prefix + "RESIDENT", kSplitWalkResident)),
        fmt::arg("device", device));
  }
  std::vector<std::string> parts;
  const std::string combine = split_combine_launch(p, call_args, prefix, split, parts, body);
  return fmt::format(
             "    {k}_split_partial[(triton.cdiv({rows}, {xb}), {split}, 1)]({args}, {parts}, "
             "{chunk}, XBLOCK={xb}, R0_BLOCK={block}, num_warps={warps}, num_stages={stages})\n",
             fmt::arg("k", kernel), fmt::arg("rows", rows), fmt::arg("xb", xblock),
             fmt::arg("split", split), fmt::arg("args", fmt::join(call_args, ", ")),
             fmt::arg("parts", fmt::join(parts, ", ")), fmt::arg("chunk", chunk),
             fmt::arg("block", block), fmt::arg("warps", settings.value(prefix + "num_warps", 4)),
             fmt::arg("stages", settings.value(prefix + "num_stages", 1))) +
         combine;
}

std::string split_combine_launch(const nlohmann::json& p,
                                 const std::vector<std::string>& call_args,
                                 const std::string& prefix,
                                 std::int64_t split,
                                 std::vector<std::string>& parts,
                                 std::string& body) {
  const std::string kernel = p.at("kernel").get<std::string>();
  const std::int64_t rows = p.at("numels").at("xnumel").get<std::int64_t>();
  const int count = p.at("split_reduction").at("partials").get<int>();
  const std::string dtype = p.at("split_reduction").at("dtype").get<std::string>();
  // The partials live on the device of the launch's first tensor.
  const auto tensor = std::find_if(call_args.begin(), call_args.end(),
                                   [](const std::string& a) { return a.rfind("_t", 0) == 0; });
  if (tensor == call_args.end()) return "";
  for (int k = 0; k < count; ++k) {
    const std::string var = fmt::format("_{}part{}", prefix, k);
    body += fmt::format("    {} = torch.empty(({}, {}), dtype={}, device={}.device)\n", var, split,
                        rows, dtype, *tensor);
    parts.push_back(var);
  }
  const std::int64_t split_block = std::max<std::int64_t>(2, next_power_of_two(split));
  const std::int64_t combine_rows =
      std::clamp<std::int64_t>(2048 / split_block, 1, next_power_of_two(rows));
  return fmt::format(
      "    {k}_split_combine[(triton.cdiv({rows}, {cx}), 1, 1)]({args}, {parts}, {split}, "
      "XBLOCK={cx}, SPLIT_BLOCK={sb}, num_warps=4, num_stages=1)\n",
      fmt::arg("k", kernel), fmt::arg("rows", rows), fmt::arg("cx", combine_rows),
      fmt::arg("args", fmt::join(call_args, ", ")), fmt::arg("parts", fmt::join(parts, ", ")),
      fmt::arg("split", split), fmt::arg("sb", split_block));
}

namespace {

std::optional<Match> split_on(const std::optional<Match>& base, const std::string& on) {
  if (!base || base->params.value("kind", "") == "template") return std::nullopt;
  nlohmann::json launches = base->params.contains("launches")
                                ? base->params.at("launches")
                                : nlohmann::json::array({base->params});
  std::vector<std::string> what;
  for (auto& launch : launches) {
    if (launch.value("kind", "") != "reduction" || !launch.contains("numels") ||
        launch.contains("fixed")) {
      continue;  // a one-pass rewrite's (its whole row a program) has no loop left
    }
    const auto& numels = launch.at("numels");
    if (!numels.contains("xnumel") || !numels.contains("r0_numel")) continue;
    const auto rows = numels.at("xnumel").get<std::int64_t>();
    const auto row = numels.at("r0_numel").get<std::int64_t>();
    if (row < kSplitLeastRow) continue;
    // Shifted sums first where the kernel keeps a Welford loop: the split adds programs, the
    // sums take the division out of each element.
    std::string source = launch.at("source").get<std::string>();
    if (auto s = shifted_sums_source(source)) source = s->source;
    const bool sums = source.find("_dx = tl.where(") != std::string::npos;
    const auto split = split_reduction_source(source);
    // Many rows already fill the GPU; a two-walk kernel's split is about its second walk's reads.
    if (!split || (!split->walks && rows > kSplitMostRows)) continue;
    // Starting settings: config's tiles, each with as many chunks a row as make about 4096
    // programs (2 to 64, each chunk at least two R0_BLOCKs); for two walks, as many as keep a
    // program's chunk within kSplitWalkBytes (up to 256, the combine's tile at most 4096).
    std::vector<nlohmann::json> settings;
    for (auto s : config_settings(Match{"config", launch, ""})) {
      const std::int64_t xblock = s.value("XBLOCK", std::int64_t{1});
      const std::int64_t block = s.value("R0_BLOCK", std::int64_t{1024});
      std::int64_t want = 0;
      if (split->walks) {
        // The combine's tile [XBLOCK, SPLIT] stays within 4096 elements; where that leaves a
        // chunk above kSplitWalkBytes, fewer programs an SM keep what is in flight the same.
        const std::int64_t fits = std::max<std::int64_t>(1, kSplitWalkBytes / (4 * xblock));
        want = std::min<std::int64_t>(
            {(row + fits - 1) / fits, 256, row / block, std::max<std::int64_t>(1, 4096 / xblock)});
        const std::int64_t bytes =
            4 * xblock * chunk_of(row, std::max<std::int64_t>(want, 1), block);
        s["RESIDENT"] = std::clamp<std::int64_t>(kSplitWalkResident * kSplitWalkBytes / bytes, 1,
                                                 kSplitWalkResident);
      } else {
        const std::int64_t programs = (rows + xblock - 1) / xblock;
        want = next_power_of_two((kSplitPrograms + programs - 1) / programs);
        want = std::min<std::int64_t>({want, 64, row / (2 * block)});
      }
      if (want < 2) continue;
      s["SPLIT"] = want;
      if (std::find(settings.begin(), settings.end(), s) == settings.end()) {
        settings.push_back(std::move(s));
      }
    }
    if (settings.empty()) continue;
    launch["source"] = split->source;
    launch["split_reduction"] = {{"partials", split->partials},
                                 {"dtype", split->dtype},
                                 {"reductions", split->reductions},
                                 {"shifted_sums", sums},
                                 {"walks", split->walks}};
    launch["settings"] = settings;
    what.push_back(
        fmt::format("{} ({} rows of {}{}{})", launch.at("kernel").get<std::string>(), rows, row,
                    sums ? ", its Welford loop as shifted sums" : "",
                    split->walks ? ", both walks over each chunk, a barrier between" : ""));
  }
  if (what.empty()) return std::nullopt;
  return on_base_match(
      base, on, std::move(launches), "split",
      fmt::format("Inductor's looped reduction {} split: each row's chunks reduced by programs of "
                  "their own into partial results, which a second kernel combines to finish the "
                  "row (a kernel that walks its rows twice: the same programs, after a barrier, "
                  "each its own chunk)",
                  fmt::join(what, "; ")));
}

}  // namespace

std::optional<Match> split_of(const std::optional<Match>& fuse,
                              const std::optional<Match>& rewrite,
                              const std::optional<Match>& config) {
  // The split adds to what the other rewrites did to the segment: fuse's launches (L2/85's norm
  // computed inside its pool), the rewrite's (shifted sums, recompute instead of reload) and
  // config's relaunch, each where it leaves something to split (a one-pass rewrite has no loop
  // left); the first is the match, the others its further bases.
  return first_on_base(fuse, rewrite, config, split_on);
}

std::optional<Match> match_split(const inductor::OutputCode& code,
                                 const analysis::DispatchMap& map,
                                 const analysis::Segment& segment) {
  return split_of(match_fuse(code, map, segment), match_rewrite(code, map, segment),
                  match_config(code, map, segment));
}

}  // namespace kernelopt::propose
