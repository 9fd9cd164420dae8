// The rewrite proposer's retile: a looped reduction over a channels-last tensor read in memory
// order. After a 2-D convolution Inductor keeps the output channels-last ([N, S, C] in memory), and
// a group norm's statistics kernel has rows x = n * G + g of S * CG elements, r = s * CG + j for
// channel c = g * CG + j. Its tile [XBLOCK rows, R0_BLOCK] then reads CG * 4 contiguous bytes of
// every C * 4, with few rows (N * G, a thousand or two) to spread over the GPU. Measured on the
// H200 (scripts/gpu/channels_last_stats.py): 1.6-2.3x its floor, and a kernel that reads tiles
// [spatial, C] of one sample, contiguous, reaches 1.0-1.7x of it; more programs alone (split) do
// not.
//
// KERNEL_retile_partial: program (n, k) takes spatial rows [k * CHUNK, (k + 1) * CHUNK) of sample
// n in steps of SB rows, a tile [SB, CB] (CB = C rounded up to a power of two, the channels past C
// clamped to C - 1 and masked out). On that tile it defines xindex = n * G + c // CG and r0_index =
// s * CG + c % CG, so Inductor's prologue and loop body run unchanged: every name they compute
// from xindex and r0_index (x0, x1, r0_2, r0_3, the addresses, the masks' uses) holds what it
// holds in Inductor's kernel for that element. (n, s, c) <-> (x, r) is one to one, so the tile
// reduces each row's elements exactly once. After the loop the lane statements run as Inductor
// wrote them, each reduction over the lanes runs over the spatial rows (axis 0), and each channel's
// result is stored as partial k * CG + c % CG of row xindex, the layout of the split's combine.
// KERNEL_split_combine (detail::combine_kernel) then finishes each row over its CHUNKS * CG
// partials and runs Inductor's epilogue.
//
// It applies where split_reduction_source would (one loop, float accumulators, reductions over
// the lanes, an epilogue that uses only their results), the prologue defines `xA = (xindex % G)`,
// the loop `rB = (r0_index % CG)` and `rD = r0_index // CG` (or `rD = r0_index`: CG = 1), a load
// of the loop reads `CG*xA`, `rB` and `C*rD` (the channels-last address), the numels are literal
// multiples of G and CG, and the loop's accumulators change only through values masked by
// r0_mask (so the spatial rows past a chunk's end add nothing).
#include "kernelopt/propose/transform/retile.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/detail/looped_reduction.hpp"
#include "kernelopt/propose/transform/config.hpp"

namespace kernelopt::propose {

namespace py = inductor::detail;
using detail::LoopedReduction;
using detail::Stmt;

namespace {

// The literal of `NAME = 123`, or 0.
std::int64_t literal_of(const std::vector<Stmt>& stmts, const std::string& name) {
  for (const auto& s : stmts) {
    if (s.targets == std::vector<std::string>{name} && !s.rhs.empty() &&
        std::all_of(s.rhs.begin(), s.rhs.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
      return std::stoll(s.rhs);
    }
  }
  return 0;
}

// The right side without one pair of enclosing parentheses.
std::string unparenthesized(std::string rhs) {
  if (rhs.size() > 2 && rhs.front() == '(' && rhs.back() == ')') {
    rhs = rhs.substr(1, rhs.size() - 2);
  }
  return rhs;
}

// `T = (BASE OP K)` among stmts: T and K; {"", 0} where there is none.
std::pair<std::string, std::int64_t> period_of(const std::vector<Stmt>& stmts,
                                               const std::string& base,
                                               const std::string& op) {
  const std::string prefix = base + " " + op + " ";
  for (const auto& s : stmts) {
    const std::string rhs = unparenthesized(s.rhs);
    if (s.targets.size() != 1 || rhs.rfind(prefix, 0) != 0) continue;
    const std::string k = rhs.substr(prefix.size());
    if (!k.empty() &&
        std::all_of(k.begin(), k.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
      return {s.targets[0], std::stoll(k)};
    }
  }
  return {"", 0};
}

// What the tile needs of the kernel: its sizes and the names of its channel and spatial indices.
struct Layout {
  std::int64_t rows = 0, row = 0;  // xnumel, r0_numel
  std::int64_t groups = 0, group_channels = 1;
  // Inductor's names of the row's group and sample (xindex % G, xindex // G; the sample's may be
  // absent) and of the element's channel within the group and spatial row (r0_index % CG, // CG;
  // the channel's absent where CG is 1): the tile defines them directly, so that Triton sees the
  // address contiguous along the channels (16-byte loads; through xindex's and r0_index's
  // divisions it saw none and loaded 4 bytes at a time: 0.49-0.57x on L2/85).
  std::string group, sample, within, spatial;
};

std::optional<Layout> layout_of(const LoopedReduction& r) {
  Layout l;
  l.rows = literal_of(r.prologue, "xnumel");
  l.row = literal_of(r.prologue, "r0_numel");
  const auto [group, groups] = period_of(r.prologue, "xindex", "%");
  auto [within, channels] = period_of(r.body, "r0_index", "%");
  auto [spatial, cg] = period_of(r.body, "r0_index", "//");
  if (within.empty()) {  // one channel a group: the row index is the spatial index
    channels = 1;
    cg = 1;
    for (const auto& s : r.body) {
      if (s.rhs == "r0_index" && s.targets.size() == 1 && s.targets[0].rfind("r0_", 0) == 0 &&
          s.targets[0] != "r0_offset") {
        spatial = s.targets[0];
      }
    }
  }
  if (group.empty() || spatial.empty() || groups < 2 || channels != cg || l.rows <= 0 ||
      l.row <= 0 || l.rows % groups != 0 || l.row % channels != 0) {
    return std::nullopt;
  }
  l.groups = groups;
  l.group_channels = channels;
  l.group = group;
  l.within = within;
  l.spatial = spatial;
  if (const auto [sample, k] = period_of(r.prologue, "xindex", "//"); k == groups) {
    l.sample = sample;
  }
  const std::int64_t c = groups * channels;
  if (c < 8 || c > 1024 || l.row / channels < 64) return std::nullopt;
  // The channels-last address: the channel's offset within its group and the spatial stride C.
  const std::string stride = fmt::format("{}*{}", c, spatial);
  const std::string offset = channels == 1 ? group : fmt::format("{}*{}", channels, group);
  const bool read = std::any_of(r.body.begin(), r.body.end(), [&](const Stmt& s) {
    return s.rhs.find("tl.load(") != std::string::npos && s.rhs.find(stride) != std::string::npos &&
           s.rhs.find(offset) != std::string::npos &&
           (l.group_channels == 1 || s.uses.count(l.within) != 0);
  });
  if (!read) return std::nullopt;
  return l;
}

// A statement's lines with the tile's shape for Inductor's; "" where XBLOCK, R0_BLOCK or the row
// offset's names remain.
std::string on_tile(const LoopedReduction& r, const Stmt& s, std::size_t indent) {
  std::string text;
  for (std::size_t i = s.first; i <= s.last; ++i) {
    std::string line = r.lines[i];
    for (const std::string shape : {"[XBLOCK, R0_BLOCK]", "[XBLOCK, RBLOCK]"}) {
      for (auto at = line.find(shape); at != std::string::npos; at = line.find(shape, at)) {
        line.replace(at, shape.size(), "[SB, CB]");
      }
    }
    text += std::string(indent, ' ') + line + "\n";
  }
  for (const char* name : {"XBLOCK", "R0_BLOCK", "RBLOCK", "r0_base", "rbase", "xoffset"}) {
    if (text.find(name) != std::string::npos) return "";
  }
  return text;
}

// `text` with each whole summand pair `rB + CG*xA` (the channel within its group plus the
// group's first channel: the channel) written `tile_c`, which Triton sees contiguous.
std::string channel_terms(std::string text, const Layout& l) {
  if (l.within.empty()) return text;
  const std::string pair = fmt::format("{} + {}*{}", l.within, l.group_channels, l.group);
  for (auto at = text.find(pair); at != std::string::npos; at = text.find(pair, at + 1)) {
    const std::size_t end = at + pair.size();
    const bool starts =
        at == 0 || text[at - 1] == '(' || (at >= 2 && text.compare(at - 2, 2, "+ ") == 0);
    const bool ends = end == text.size() || text[end] == ')' || text.compare(end, 2, " +") == 0 ||
                      text[end] == ',';
    if (starts && ends) text.replace(at, pair.size(), "tile_c");
  }
  return text;
}

// Every accumulator of the loop changes only through values masked by r0_mask: each statement
// that assigns one is a `tl.where(...r0_mask..., ...)` or uses a (non-accumulator) value assigned
// by one (shifted sums' `_dx`). A masked load alone does not count: its `other` need not be the
// reduction's identity.
bool masked_accumulators(const LoopedReduction& r) {
  std::set<std::string> masked;
  for (const auto& s : r.body) {
    const bool where =
        s.rhs.rfind("tl.where(", 0) == 0 && s.rhs.find("r0_mask") != std::string::npos;
    for (const auto& t : s.targets) {
      if (r.accumulators.count(t) == 0) {
        if (where) masked.insert(t);
      } else if (!where && !detail::uses_any(s, masked)) {
        return false;
      }
    }
  }
  return true;
}

// The loop's row offset is used only to say the first step (`roffset == 0`, the Welford
// reduction's first flag), which tile_offset - tile_s0 keeps.
bool offset_only_first(const Stmt& s) {
  if (s.text == "roffset = r0_offset" || s.text == "r0_index = r0_offset + r0_base") return true;
  if (s.uses.count("r0_offset") != 0) return false;
  std::size_t uses = 0;
  std::size_t firsts = 0;
  for (auto at = s.text.find("roffset"); at != std::string::npos;
       at = s.text.find("roffset", at + 1)) {
    ++uses;
    firsts += s.text.compare(at, 12, "roffset == 0") == 0 ? 1 : 0;
  }
  return uses == firsts;
}

// Whether the partial kernel combines a group's channels itself: CG a power of two above 1 (the
// tile's lanes then reshape to [CB / CG, CG], each group's channels a row).
bool grouped_here(const Layout& l) {
  return l.group_channels > 1 && (l.group_channels & (l.group_channels - 1)) == 0;
}

// The statements that stand for Inductor's reduction over the lanes: over the tile's spatial rows
// (axis 0), per channel; then, where `group` (CG) is not 0, over each group's CG channels.
std::string spatial_reduction(const detail::Reduce& red, std::int64_t group) {
  const auto names = [&](const char* suffix) {
    std::vector<std::string> out;
    for (const auto& o : red.outputs) {
      out.push_back(o + suffix);
    }
    return out;
  };
  const std::vector<std::string> per_channel = group != 0 ? names("_c") : red.outputs;
  const char* callee = detail::reduction_callee(red.op);
  std::string text = fmt::format("    {} = {}({}, 0)\n", fmt::join(per_channel, ", "), callee,
                                 fmt::join(red.args, ", "));
  if (group == 0) return text;
  std::vector<std::string> reshaped;
  reshaped.reserve(per_channel.size());
  for (const auto& v : per_channel) {
    reshaped.push_back(fmt::format("tl.reshape({}, [CB // {}, {}])", v, group, group));
  }
  return text + fmt::format("    {} = {}({}, 1)\n", fmt::join(red.outputs, ", "), callee,
                            fmt::join(reshaped, ", "));
}

std::string partial_kernel(const LoopedReduction& r, const Layout& l) {
  const std::int64_t c = l.groups * l.group_channels;
  const std::int64_t spatial = l.row / l.group_channels;
  std::string k = fmt::format(
      "@triton.jit\ndef {}_retile_partial({}, {}, s_chunk, n_chunks, SB : tl.constexpr, CB : "
      "tl.constexpr):\n",
      r.kernel, r.runtime, fmt::join(r.parts, ", "));
  const bool padded = next_power_of_two(c) != c;
  const std::string header = fmt::format(
      "    tile_n = tl.program_id(0) // n_chunks\n"
      "    tile_k = tl.program_id(0) % n_chunks\n"
      "    tile_s0 = tile_k * s_chunk\n"
      "    tile_s1 = tl.minimum(tile_s0 + s_chunk, {S})\n"
      "    tile_c = {tile_c}\n"
      "    xindex = tile_n * {G} + tile_c // {CG}\n"
      "    xmask = {xmask}\n",
      fmt::arg("S", spatial), fmt::arg("G", l.groups), fmt::arg("CG", l.group_channels),
      // Channels past C (CB > C) read channel C - 1 and are masked; none: no clamp, no mask.
      fmt::arg("tile_c", padded ? fmt::format("tl.minimum(tl.arange(0, CB), {} - 1)[None, :]", c)
                                : std::string("tl.arange(0, CB)[None, :]")),
      fmt::arg("xmask", padded ? fmt::format("(tl.arange(0, CB) < {})[None, :]", c)
                               : std::string("tl.full([1, CB], True, tl.int1)")));
  static const std::set<std::string> replaced = {"xindex", "xmask", "r0_base", "rbase", "RBLOCK"};
  bool offset_seen = false;
  for (const auto& s : r.prologue) {
    if (s.text == "xoffset = tl.program_id(0) * XBLOCK") {
      k += header;
      offset_seen = true;
      continue;
    }
    if (s.targets.size() == 1 && replaced.count(s.targets[0]) != 0) continue;
    if (s.targets.size() == 1 && s.targets[0] == l.group) {
      k += fmt::format("    {} = tile_c // {}\n", l.group, l.group_channels);
      continue;
    }
    if (s.targets.size() == 1 && s.targets[0] == l.sample) {
      k += fmt::format("    {} = tile_n\n", l.sample);
      continue;
    }
    const std::string text = on_tile(r, s, 0);
    if (text.empty()) return "";
    k += text;
  }
  if (!offset_seen) return "";
  k += fmt::format(
      "    for tile_offset in tl.range(tile_s0, tile_s1, SB):\n"
      "        tile_s = tile_offset + tl.arange(0, SB)[:, None]\n"
      "        r0_offset = tile_offset - tile_s0\n"
      "        tile_sc = tl.minimum(tile_s, {S} - 1)\n"
      "        r0_index = tile_sc * {CG} + tile_c % {CG}\n"
      "        r0_mask = tile_s < tile_s1\n",
      fmt::arg("S", spatial), fmt::arg("CG", l.group_channels));
  bool index_seen = false;
  for (const auto& s : r.body) {
    if (s.text == "r0_index = r0_offset + r0_base") {
      index_seen = true;
      continue;
    }
    if (std::find(s.targets.begin(), s.targets.end(), "r0_mask") != s.targets.end()) continue;
    if (s.targets.size() == 1 && s.targets[0] == l.within && !l.within.empty()) {
      k += fmt::format("        {} = tile_c % {}\n", l.within, l.group_channels);
      continue;
    }
    if (s.targets.size() == 1 && s.targets[0] == l.spatial) {
      k += fmt::format("        {} = tile_sc\n", l.spatial);
      continue;
    }
    const std::string text = on_tile(r, s, 0);
    if (text.empty() || !offset_only_first(s)) return "";
    k += channel_terms(text, l);
  }
  if (!index_seen) return "";
  // Each row's partials lie together ([xnumel, n_split]), so that the combine reads them in
  // order: one a chunk where the group's channels are combined here (CG a power of two), else one
  // a (chunk, channel of the group).
  const bool grouped = grouped_here(l);
  if (grouped) {
    k += fmt::format("    tile_g = tl.arange(0, CB // {})\n", l.group_channels);
    k += fmt::format(
        "    tile_at = (tile_n * {G} + tl.minimum(tile_g, {G} - 1)) * n_chunks + tile_k\n",
        fmt::arg("G", l.groups));
    k += fmt::format("    tile_keep = tile_g < {}\n", l.groups);
  } else {
    k += fmt::format(
        "    tile_c1 = tl.minimum(tl.arange(0, CB), {C} - 1)\n"
        "    tile_at = (tile_n * {G} + tile_c1 // {CG}) * (n_chunks * {CG}) + tile_k * {CG} + "
        "tile_c1 % {CG}\n"
        "    tile_keep = tl.arange(0, CB) < {C}\n",
        fmt::arg("C", c), fmt::arg("G", l.groups), fmt::arg("CG", l.group_channels));
  }
  int part = 0;
  for (std::size_t n = 0; n < r.after.size(); ++n) {
    if (r.lane_level[n]) {
      const std::string text = on_tile(r, r.after[n], 0);
      if (text.empty()) return "";
      k += text;
    }
    if (!r.kinds[n]) continue;
    k += spatial_reduction(*r.kinds[n], grouped ? l.group_channels : 0);
    for (const auto& value : r.kinds[n]->outputs) {
      k += fmt::format("    tl.store(part_ptr{} + tile_at, {}, tile_keep)\n", part++, value);
    }
  }
  return k;
}

}  // namespace

std::optional<RetileReduction> retile_reduction_source(const std::string& source) {
  const auto r = detail::parse_looped_reduction(source);
  if (!r || r->walks || !masked_accumulators(*r)) return std::nullopt;
  const auto l = layout_of(*r);
  if (!l) return std::nullopt;
  const std::string partial = partial_kernel(*r, *l);
  const std::string combine = detail::combine_kernel(*r, "xindex * n_split + split_index");
  if (partial.empty() || combine.empty()) return std::nullopt;
  RetileReduction out;
  out.split.source = r->header + partial + "\n\n" + combine;
  out.split.kernel = r->kernel;
  out.split.reductions = r->reductions;
  out.split.partials = static_cast<int>(r->parts.size());
  out.split.dtype = "torch." + r->type;
  out.groups = l->groups;
  out.channels = l->groups * l->group_channels;
  out.samples = l->rows / l->groups;
  out.spatial = l->row / l->group_channels;
  out.per_chunk = grouped_here(*l) ? 1 : l->group_channels;
  return out;
}

}  // namespace kernelopt::propose
