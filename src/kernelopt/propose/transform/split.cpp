// The rewrite proposer's split ("changing the split of a reduction"): a looped reduction
// with few rows, each long, made two kernels. Inductor gives each row (or XBLOCK rows) one
// program that walks the whole row; with a thousand or two rows (a group norm's statistics after
// a convolution: N x G rows of C / G x H x W elements) the GPU holds every program at once and
// each walks hundreds of kilobytes alone. The split gives a row SPLIT programs:
//
// - the partial kernel is Inductor's own, its loop walking one chunk of the row (program_id(1)
//   picks the chunk; chunks are whole multiples of R0_BLOCK), its reductions over the lanes as
//   Inductor wrote them, and each result stored to a partial buffer [SPLIT, xnumel];
// - the combine kernel loads a row's SPLIT partials and combines them with the same operation
//   (a sum of sums, a max of maxima, Welford's combine of (mean, M2, weight) triples: Inductor's
//   `triton_helpers.welford` over them), then runs what Inductor's kernel did after its loop (the
//   epilogue: rsqrt, stores), unchanged.
//
// It applies to a kernel of one top-level `for r0_offset` loop whose loop-carried values are
// float accumulators of shape [XBLOCK, R0_BLOCK] initialised before it, read after it only by
// `tl.sum(A, 1)`, `triton_helpers.max2(A, 1)`, `triton_helpers.min2(A, 1)` or
// `triton_helpers.welford(M, M2, W, 1)` (directly, or through elementwise statements on them, as
// shifted sums write), and whose epilogue uses nothing of the loop. An arg-reduction, a product or
// an online softmax: left alone.
//
// A kernel that walks each row twice (an instance norm: the statistics loop, then a second loop
// that normalizes and stores) becomes one kernel, KERNEL_split_walks: persistent programs, SPLIT
// of them per row block, each walking its own chunk of the rows in both loops, the partials
// combined after a barrier among the block's programs (row_two_pass's). The second walk then reads
// its chunk from L2 instead of HBM when the chunks in flight fit there; Inductor's one program a
// row block reads the whole row again from HBM once rows in flight exceed L2 (L2/17: 16384 rows of
// 62 KB, 1.89x its floor). Many rows are no obstacle here. The launch goes through
// row_two_pass.launch_split, which falls back to the two walks as two launches (no program
// waits) under the interpreter or where the grid would not be resident.
#include "kernelopt/propose/transform/split.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/detail/looped_reduction.hpp"
#include "kernelopt/propose/transform/config.hpp"
#include "kernelopt/propose/transform/fuse.hpp"
#include "kernelopt/propose/transform/on_base.hpp"
#include "kernelopt/propose/transform/relaunch.hpp"
#include "kernelopt/propose/transform/retile.hpp"
#include "kernelopt/propose/transform/rewrite.hpp"
#include "kernelopt/search/detail/interleave.hpp"

namespace kernelopt::propose {

namespace py = inductor::detail;
using detail::combine_kernel;
using detail::combine_statement;
using detail::LoopedReduction;
using detail::parse_looped_reduction;
using detail::uses_any;

namespace {

std::string indented(const std::string& line, std::size_t by) {
  return std::string(by, ' ') + line + "\n";
}

// The split of a kernel that walks its row twice, the statistics and then the output (an
// instance norm whose second loop normalizes and stores): KERNEL_split_walks, persistent programs,
// SPLIT a row block, each taking its chunk of the row in both walks. Phase 0 runs both walks with
// a barrier among a row block's SPLIT programs between them (row_two_pass's), so that the second
// walk reads its chunk from L2; phases 1 and 2 are the two walks as two launches, in which no
// program waits (under the interpreter, or where the grid would not be resident). "" where the
// second walk reads what only the first one computes.
std::string walks_kernel(const LoopedReduction& r) {
  const auto& lines = r.lines;
  const auto& prologue = r.prologue;
  const auto& after = r.after;
  const auto& walk = r.walk;
  const auto& kinds = r.kinds;
  const auto& lane_level = r.lane_level;
  const auto& kernel = r.kernel;
  const auto& runtime = r.runtime;
  const auto& mask_line = r.mask_line;

  struct {
    std::size_t def_at, loop_at, body_end, walk_at, walk_end;
  } const at{r.def_at, r.loop_at, r.body_end, r.after_end, r.walk_end};

  // The second walk: its own loop names, the prologue's and the reductions' results; its mask
  // compared with the chunk's end as the first walk's.
  std::set<std::string> walk_defs;
  std::optional<std::size_t> walk_mask;
  bool walk_mask_known = false;
  for (const auto& s : walk) {
    walk_defs.insert(s.targets.begin(), s.targets.end());
    if (s.text == "r0_mask = r0_index < r0_numel") walk_mask = s.first;
    walk_mask_known = walk_mask_known || walk_mask || s.text.rfind("r0_mask = tl.full(", 0) == 0;
  }
  if (!walk_mask_known) return "";
  std::set<std::string> forbidden = r.lanes;
  for (const auto& name : r.loop_only) {
    if (walk_defs.count(name) == 0) forbidden.insert(name);
  }
  for (const auto& s : walk) {
    if (uses_any(s, forbidden)) return "";
  }
  // The prologue's one program_id: the row block's offset, which the persistent loop sets.
  int program_ids = 0;
  for (const auto& s : prologue) {
    if (s.text.find("tl.program_id") == std::string::npos) continue;
    if (s.text != "xoffset = tl.program_id(0) * XBLOCK") return "";
    ++program_ids;
  }
  if (program_ids != 1) return "";

  const std::string pad(4, ' ');
  std::string k = fmt::format(
      "@triton.jit\ndef {}_split_walks({}, part_ptr, count_ptr, r0_chunk, n_xblocks, XBLOCK : "
      "tl.constexpr, R0_BLOCK : tl.constexpr, SPLIT : tl.constexpr, SPLIT_BLOCK : tl.constexpr, "
      "PHASE : tl.constexpr):\n",
      kernel, runtime);
  // The prologue up to the row block's offset (xnumel, r0_numel as constants) before the
  // persistent loop, so that the loop does not carry them; the rest of it in the loop.
  std::size_t offset_at = at.loop_at;
  for (const auto& s : prologue) {
    if (s.text.find("tl.program_id") != std::string::npos) offset_at = s.first;
  }
  for (std::size_t i = at.def_at + 1; i < offset_at; ++i) {
    k += lines[i] + "\n";
  }
  k += pad + "r0_split = tl.program_id(0) % SPLIT\n";
  k += pad + "x_slot = tl.program_id(0) // SPLIT\n";
  k += pad + "x_slots = tl.num_programs(0) // SPLIT\n";
  k += pad + "r0_start = r0_split * r0_chunk\n";
  k += pad + "r0_end = tl.minimum(r0_start + r0_chunk, r0_numel)\n";
  k += pad + "for x_block in tl.range(x_slot, n_xblocks, x_slots):\n";
  for (std::size_t i = offset_at; i < at.loop_at; ++i) {
    std::string line = lines[i];
    if (const auto id = line.find("tl.program_id(0)"); id != std::string::npos) {
      line.replace(id, std::string("tl.program_id(0)").size(), "x_block");
    }
    k += indented(line, 4);
  }
  const auto loop_lines = [&](std::size_t from, std::size_t to, std::optional<std::size_t> mask) {
    std::string text = indented("for r0_offset in tl.range(r0_start, r0_end, R0_BLOCK):", 12);
    for (std::size_t i = from; i < to; ++i) {
      text +=
          mask && i == *mask
              ? indented(
                    std::string(py::indentation(lines[i]), ' ') + "r0_mask = r0_index < r0_end", 8)
              : indented(lines[i], 8);
    }
    return text;
  };
  // Phase 1's part: the statistics walk over the chunk, the lanes reduced, stored per chunk.
  k += indented("if PHASE != 2:", 8);
  k += loop_lines(at.loop_at + 1, at.body_end, mask_line);
  int part = 0;
  for (std::size_t n = 0; n < after.size(); ++n) {
    if (!kinds[n] && !lane_level[n]) continue;
    for (std::size_t i = after[n].first; i <= after[n].last; ++i) {
      k += indented(lines[i], 8);
    }
    if (!kinds[n]) continue;
    for (const auto& value : kinds[n]->outputs) {
      k += indented(fmt::format("tl.store(part_ptr + (({} * SPLIT + r0_split) * xnumel + xindex), "
                                "{}{}, xmask)",
                                part++, value, kinds[n]->keeps_dim ? "" : "[:, None]"),
                    12);
    }
  }
  k += indented("if PHASE == 0:", 8);
  k += indented("kernelopt_row_barrier(count_ptr, x_block, SPLIT)", 12);
  // Phase 2's part: the row block's partials combined (.cg: from L2, not a stale L1 line), what
  // Inductor computes between the walks, the second walk over the chunk.
  k += indented("if PHASE != 1:", 8);
  k += indented("split_index = tl.arange(0, SPLIT_BLOCK)[None, :]", 12);
  k += indented("split_mask = (split_index < SPLIT) & xmask", 12);
  for (int p = 0; p < part; ++p) {
    k +=
        indented(fmt::format("part{0} = tl.load(part_ptr + (({0} * SPLIT + split_index) * xnumel + "
                             "xindex), split_mask, other=0.0, cache_modifier=\".cg\")",
                             p),
                 12);
  }
  part = 0;
  for (std::size_t n = 0; n < after.size(); ++n) {
    if (lane_level[n]) continue;
    if (!kinds[n]) {
      for (std::size_t i = after[n].first; i <= after[n].last; ++i) {
        k += indented(lines[i], 8);
      }
      continue;
    }
    k += indented(combine_statement(*kinds[n], part), 12);
  }
  k += loop_lines(at.walk_at + 1, at.walk_end, walk_mask);
  return k;
}

}  // namespace

std::optional<SplitReduction> split_reduction_source(const std::string& source) {
  const auto r = parse_looped_reduction(source);
  if (!r) return std::nullopt;
  const std::string pad(4, ' ');
  const auto& lines = r->lines;
  const std::string part_params = fmt::format("{}", fmt::join(r->parts, ", "));
  SplitReduction out;
  out.kernel = r->kernel;
  out.reductions = r->reductions;
  out.partials = static_cast<int>(r->parts.size());
  out.dtype = "torch." + r->type;
  if (r->walks) {
    std::string text = walks_kernel(*r);
    if (text.empty()) return std::nullopt;
    out.walks = true;
    out.source = r->header +
                 "from kernelopt.recipes.row_two_pass import _row_barrier as "
                 "kernelopt_row_barrier\n\n\n" +
                 text;
    return out;
  }

  // The partial kernel.
  std::string partial = fmt::format(
      "@triton.jit\ndef {}_split_partial({}, {}, r0_chunk, XBLOCK : tl.constexpr, R0_BLOCK : "
      "tl.constexpr):\n",
      r->kernel, r->runtime, part_params);
  for (std::size_t i = r->def_at + 1; i < r->loop_at; ++i) {
    partial += lines[i] + "\n";
  }
  partial += pad + "r0_split = tl.program_id(1)\n";
  partial += pad + "r0_start = r0_split * r0_chunk\n";
  partial += pad + "r0_end = tl.minimum(r0_start + r0_chunk, r0_numel)\n";
  partial += pad + "for r0_offset in tl.range(r0_start, r0_end, R0_BLOCK):\n";
  for (std::size_t i = r->loop_at + 1; i < r->body_end; ++i) {
    partial += r->mask_line && i == *r->mask_line
                   ? std::string(py::indentation(lines[i]), ' ') + "r0_mask = r0_index < r0_end\n"
                   : lines[i] + "\n";
  }
  int part = 0;
  for (std::size_t k = 0; k < r->after.size(); ++k) {
    const auto& kind = r->kinds[k];
    if (!kind && !r->lane_level[k]) continue;
    for (std::size_t i = r->after[k].first; i <= r->after[k].last; ++i) {
      partial += lines[i] + "\n";
    }
    if (!kind) continue;
    for (const auto& value : kind->outputs) {
      partial += fmt::format("{}tl.store(part_ptr{} + (r0_split * xnumel + xindex), {}{}, xmask)\n",
                             pad, part++, value, kind->keeps_dim ? "" : "[:, None]");
    }
  }
  const std::string combine = combine_kernel(*r);
  if (combine.empty()) return std::nullopt;
  out.source = r->header + partial + "\n\n" + combine;
  return out;
}

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

Match on_base_match(const std::optional<Match>& base,
                    const std::string& on,
                    nlohmann::json launches,
                    const std::string& recipe,
                    const std::string& why) {
  nlohmann::json params =
      base->params.contains("launches") ? base->params : nlohmann::json::object();
  params["kind"] = "segment";
  params["launches"] = std::move(launches);
  params[recipe + "_on"] = on.empty() ? "config" : on;
  return Match{
      recipe, params,
      why + (on.empty() ? "" : fmt::format(" (on top of the {} rewrite: {})", on, base->why))};
}

std::optional<Match> first_on_base(const std::optional<Match>& fuse,
                                   const std::optional<Match>& rewrite,
                                   const std::optional<Match>& config,
                                   const OnBase& on_base) {
  std::optional<Match> first;
  nlohmann::json others = nlohmann::json::array();
  for (const auto& [base, on] :
       {std::pair{&fuse, "fuse"}, std::pair{&rewrite, "rewrite"}, std::pair{&config, ""}}) {
    std::optional<Match> m;
    try {
      m = on_base(*base, on);
    } catch (const nlohmann::json::exception&) {
      continue;
    }
    if (!m) continue;
    if (!first) {
      first = std::move(m);
    } else {
      others.push_back({{"on", std::string(on).empty() ? "config" : on},
                        {"params", std::move(m->params)},
                        {"why", std::move(m->why)}});
    }
  }
  if (first && !others.empty()) first->params["other_bases"] = std::move(others);
  return first;
}

namespace {

// The match on a further base, from its entry in params "other_bases".
Match match_on(const Match& match, const nlohmann::json& other) {
  return Match{match.recipe, other.at("params"), other.at("why").get<std::string>()};
}

}  // namespace

std::pair<Match, nlohmann::json> on_chosen_base(const Match& match,
                                                const nlohmann::json& settings) {
  nlohmann::json own = settings;
  Match chosen = match;
  chosen.params.erase("other_bases");
  if (!settings.is_object() || !settings.contains("on")) return {chosen, own};
  const std::string on = settings.at("on").get<std::string>();
  own.erase("on");
  for (const auto& other : match.params.value("other_bases", nlohmann::json::array())) {
    if (other.at("on") == on) return {match_on(match, other), own};
  }
  throw std::invalid_argument(
      fmt::format("the {} match has no launches on the {} base", match.recipe, on));
}

std::vector<nlohmann::json> on_bases_settings(
    const Match& match,
    const std::function<std::vector<nlohmann::json>(const Match&)>& settings_of) {
  // Interleaved: each base's first start, then each one's second, so that a round cut short by
  // the budget has tried the strategy on every base (L2/85: the retile on fuse's
  // launches lost with fuse at 0.72x while the rewrite, a base it did not try, won alone).
  std::vector<std::vector<nlohmann::json>> each{settings_of(on_chosen_base(match, {}).first)};
  for (const auto& other : match.params.value("other_bases", nlohmann::json::array())) {
    std::vector<nlohmann::json>& starts = each.emplace_back(settings_of(match_on(match, other)));
    for (auto& s : starts) {
      s["on"] = other.at("on");
    }
  }
  return search::detail::interleaved(each);
}

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
