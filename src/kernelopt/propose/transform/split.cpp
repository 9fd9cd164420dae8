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

#include <cstddef>
#include <optional>
#include <set>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/detail/looped_reduction.hpp"

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

}  // namespace kernelopt::propose
