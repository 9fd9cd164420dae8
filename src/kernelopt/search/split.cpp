// The rewrite proposer's split (issue 5, "changing the split of a reduction"): a looped reduction
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
#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/search/recipe_match.hpp"

namespace kernelopt::search {

namespace py = inductor::detail;

namespace {

struct Stmt {
  std::size_t first = 0;  // first physical line
  std::size_t last = 0;   // last physical line
  std::string text;       // joined and trimmed
  std::vector<std::string> targets;
  std::string rhs;
  std::set<std::string> uses;  // identifiers of its right side (all of it when not an assignment)
};

std::vector<Stmt> statements(const std::vector<std::string>& lines,
                             std::size_t begin,
                             std::size_t end) {
  std::vector<Stmt> out;
  for (std::size_t i = begin; i < end; ++i) {
    if (py::trim(lines[i]).empty() || py::trim(lines[i]).front() == '#') continue;
    Stmt s;
    s.first = i;
    s.text = py::joined_statement(lines, i);
    s.last = i;
    s.targets = py::assigned_names(s.text, &s.rhs);
    // `RBLOCK: tl.constexpr = R0_BLOCK`: an annotated assignment binds RBLOCK.
    if (s.targets.empty()) {
      const auto colon = s.text.find(':');
      const auto eq = s.text.find(" = ");
      if (colon != std::string::npos && eq != std::string::npos && colon < eq &&
          py::is_identifier(py::trim(s.text.substr(0, colon)))) {
        s.targets = {std::string(py::trim(s.text.substr(0, colon)))};
        s.rhs = s.text.substr(eq + 3);
      }
    }
    for (const auto& name : py::identifiers(s.targets.empty() ? s.text : s.rhs)) {
      s.uses.insert(name);
    }
    out.push_back(std::move(s));
  }
  return out;
}

bool uses_any(const Stmt& s, const std::set<std::string>& names) {
  return std::any_of(s.uses.begin(), s.uses.end(),
                     [&](const std::string& n) { return names.count(n) != 0; });
}

// A reduction over the lanes after the loop: `L = tl.sum(A, 1)[:, None]` (the suffix optional),
// max2, min2 of one value, or `L0, L1, L2 = triton_helpers.welford(M, M2, W, 1)`.
struct Reduce {
  std::string op;  // "sum", "max", "min", "welford"
  std::vector<std::string> outputs;
  std::vector<std::string> args;
  bool keeps_dim = false;  // written with `[:, None]`: its outputs are [XBLOCK, 1]
};

std::optional<Reduce> reduce_of(const Stmt& s) {
  std::string rhs = s.rhs;
  Reduce r;
  const std::string suffix = "[:, None]";
  if (rhs.size() > suffix.size() &&
      rhs.compare(rhs.size() - suffix.size(), suffix.size(), suffix) == 0) {
    rhs.resize(rhs.size() - suffix.size());
    r.keeps_dim = true;
  }
  static const std::array<std::pair<const char*, const char*>, 4> forms = {
      {{"tl.sum", "sum"},
       {"triton_helpers.max2", "max"},
       {"triton_helpers.min2", "min"},
       {"triton_helpers.welford", "welford"}}};
  for (const auto& [callee, op] : forms) {
    const auto args = py::call_args(rhs, callee);
    if (!args) continue;
    const std::size_t values = std::string(op) == "welford" ? 3 : 1;
    if (args->size() != values + 1 || args->back() != "1" || s.targets.size() != values ||
        (values == 3 && r.keeps_dim)) {
      return std::nullopt;
    }
    r.op = op;
    r.outputs = s.targets;
    r.args.assign(args->begin(), args->end() - 1);
    if (!std::all_of(r.args.begin(), r.args.end(),
                     [](const std::string& a) { return py::is_identifier(a); })) {
      return std::nullopt;
    }
    return r;
  }
  return std::nullopt;
}

// `tl.full([XBLOCK, R0_BLOCK], V, tl.float32)` or `tl.zeros([XBLOCK, R0_BLOCK], tl.float32)`: the
// element type ("float32", "float64"), or "" for another form.
std::string accumulator_type(const std::string& rhs) {
  std::optional<std::vector<std::string>> args = py::call_args(rhs, "tl.full");
  if (!args) args = py::call_args(rhs, "tl.zeros");
  if (!args || args->empty() || (*args)[0] != "[XBLOCK, R0_BLOCK]") return "";
  const std::string& type = args->back();
  if (type == "tl.float32") return "float32";
  if (type == "tl.float64") return "float64";
  return "";
}

// The statement that combines a reduction's partials (loaded as part<N>, N from `part`, which it
// advances), a row's chunks along dimension 1: a sum of sums, a max of maxima, a min of minima,
// Welford's combine of (mean, M2, weight) triples.
std::string combine_statement(const Reduce& r, int& part) {
  if (r.op == "welford") {
    const int first = part;
    part += 3;
    return fmt::format(
        "{}, {}, {} = triton_helpers.welford(part{}, part{}, tl.where(split_mask, part{}, 0.0), 1)",
        r.outputs[0], r.outputs[1], r.outputs[2], first, first + 1, first + 2);
  }
  const char* identity = r.op == "sum"   ? "0.0"
                         : r.op == "max" ? "float(\"-inf\")"
                                         : "float(\"inf\")";
  const char* callee = r.op == "sum"   ? "tl.sum"
                       : r.op == "max" ? "triton_helpers.max2"
                                       : "triton_helpers.min2";
  return fmt::format("{} = {}(tl.where(split_mask, part{}, {}), 1){}", r.outputs[0], callee, part++,
                     identity, r.keeps_dim ? "[:, None]" : "");
}

// Where a two-walk kernel's parts lie: the def line, the statistics walk's `for` line and its end,
// the second walk's `for` line (the end of what lies between) and its end.
struct WalkLines {
  std::size_t def_at, loop_at, body_end, walk_at, walk_end;
};

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
std::string walks_kernel(const std::vector<std::string>& lines,
                         const WalkLines& at,
                         const std::string& kernel,
                         const std::string& runtime,
                         std::optional<std::size_t> mask_line,
                         const std::vector<Stmt>& prologue,
                         const std::vector<Stmt>& after,
                         const std::vector<Stmt>& walk,
                         const std::vector<std::optional<Reduce>>& kinds,
                         const std::vector<bool>& lane_level,
                         const std::set<std::string>& lanes,
                         const std::set<std::string>& loop_only) {
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
  std::set<std::string> forbidden = lanes;
  for (const auto& name : loop_only) {
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
  std::vector<std::string> lines;
  for (const auto& line : py::split_lines(source)) {
    lines.emplace_back(line);
  }
  const auto jit = std::find(lines.begin(), lines.end(), "@triton.jit");
  if (jit == lines.end() || jit + 1 == lines.end()) return std::nullopt;
  const auto def_at = static_cast<std::size_t>(jit - lines.begin()) + 1;
  const std::string& def = lines[def_at];
  const auto open = def.find('(');
  const auto close = def.rfind("):");
  if (def.rfind("def ", 0) != 0 || open == std::string::npos || close == std::string::npos ||
      close < open) {
    return std::nullopt;
  }
  const std::string kernel = def.substr(4, open - 4);
  std::vector<std::string> params;  // the runtime ones, in order
  std::set<std::string> constexprs;
  for (const auto& p : py::split_top_level(def.substr(open + 1, close - open - 1))) {
    const auto colon = p.find(':');
    if (colon == std::string::npos) {
      params.push_back(p);
    } else {
      constexprs.insert(std::string(py::trim(p.substr(0, colon))));
    }
  }
  if (constexprs != std::set<std::string>{"XBLOCK", "R0_BLOCK"}) return std::nullopt;

  // The body: a prologue, one top-level loop, what follows it; or a prologue, the statistics walk,
  // what follows it, and a second walk (the output's) that ends the kernel.
  std::vector<std::size_t> loops;
  for (std::size_t i = def_at + 1; i < lines.size(); ++i) {
    const std::string_view t = py::trim(lines[i]);
    const bool loop = t.rfind("for ", 0) == 0 || t.rfind("while ", 0) == 0;
    if (!loop) continue;
    if (loops.size() == 2 || py::indentation(lines[i]) != 4 ||
        (t != "for r0_offset in tl.range(0, r0_numel, R0_BLOCK):" &&
         t != "for r0_offset in range(0, r0_numel, R0_BLOCK):")) {
      return std::nullopt;  // a third loop, a nested one, or one of another form
    }
    loops.push_back(i);
  }
  if (loops.empty()) return std::nullopt;
  const auto end_of_loop = [&](std::size_t at) {
    std::size_t end = at + 1;
    while (end < lines.size() &&
           (py::trim(lines[end]).empty() || py::indentation(lines[end]) > 4)) {
      ++end;
    }
    return end;
  };
  const std::size_t loop_at = loops[0];
  const std::size_t body_end = end_of_loop(loop_at);
  const bool walks = loops.size() == 2;
  const std::size_t after_end = walks ? loops[1] : lines.size();
  const std::size_t walk_end = walks ? end_of_loop(loops[1]) : lines.size();
  const std::vector<Stmt> prologue = statements(lines, def_at + 1, loop_at);
  const std::vector<Stmt> body = statements(lines, loop_at + 1, body_end);
  const std::vector<Stmt> after = statements(lines, body_end, after_end);
  const std::vector<Stmt> walk =
      walks ? statements(lines, loops[1] + 1, walk_end) : std::vector<Stmt>{};
  if (walks && !statements(lines, walk_end, lines.size()).empty()) return std::nullopt;
  if (source.find("tl.atomic_") != std::string::npos ||
      source.find("tl.program_id(1)") != std::string::npos ||
      source.find("tl.num_programs") != std::string::npos) {
    return std::nullopt;
  }

  // The row mask: compared with the chunk's end instead (a mask Inductor dropped stays dropped:
  // chunks are whole multiples of R0_BLOCK, which then divides r0_numel).
  std::optional<std::size_t> mask_line;  // the mask's line; none where Inductor dropped it
  bool mask_known = false;
  std::set<std::string> in_loop;  // names the loop assigns
  for (const auto& s : body) {
    if (s.text == "r0_mask = r0_index < r0_numel") mask_line = s.first;
    mask_known = mask_known || mask_line || s.text.rfind("r0_mask = tl.full(", 0) == 0;
    in_loop.insert(s.targets.begin(), s.targets.end());
  }
  if (!mask_known) return std::nullopt;

  // Accumulators: assigned before the loop in the [XBLOCK, R0_BLOCK] form and again inside it.
  std::set<std::string> accumulators;
  std::string type;
  for (const auto& s : prologue) {
    if (s.targets.size() != 1 || in_loop.count(s.targets[0]) == 0) continue;
    const std::string t = accumulator_type(s.rhs);
    if (t.empty() || (!type.empty() && t != type)) return std::nullopt;
    type = t;
    accumulators.insert(s.targets[0]);
  }
  if (accumulators.empty()) return std::nullopt;

  // After the loop: lane statements (elementwise on accumulators), reductions over the lanes, and
  // the epilogue, which may use only the reductions' results and the prologue's names.
  std::set<std::string> lanes = accumulators;
  std::set<std::string> loop_only = in_loop;  // names only the loop defines
  for (const auto& s : prologue) {
    for (const auto& t : s.targets) {
      loop_only.erase(t);
    }
  }
  std::vector<std::optional<Reduce>> kinds;  // per statement after the loop: its reduction
  std::vector<bool> lane_level;
  std::set<std::string> epilogue;  // names the epilogue assigns
  int reductions = 0;
  for (const auto& s : after) {
    std::optional<Reduce> r;
    bool lane = false;
    if (uses_any(s, lanes)) {
      r = reduce_of(s);
      if (r) {
        ++reductions;
      } else if (!s.targets.empty() && s.text.find("tl.store(") == std::string::npos &&
                 s.rhs.find("tl.load(") == std::string::npos) {
        lane = true;
        lanes.insert(s.targets.begin(), s.targets.end());
      } else {
        return std::nullopt;  // a store of lanes, or a reduction this does not know
      }
    } else if (uses_any(s, loop_only) || s.text.find("r0_") != std::string::npos ||
               s.text.find("R0_BLOCK") != std::string::npos) {
      return std::nullopt;
    } else {
      epilogue.insert(s.targets.begin(), s.targets.end());
    }
    // The partial kernel runs the lane statements and reductions without the epilogue.
    if ((r || lane) && uses_any(s, epilogue)) return std::nullopt;
    kinds.push_back(std::move(r));
    lane_level.push_back(lane);
  }
  if (reductions == 0) return std::nullopt;

  const std::string pad(4, ' ');
  const std::string runtime = fmt::format("{}", fmt::join(params, ", "));
  std::vector<std::string> parts;  // one partial buffer per reduced value
  for (const auto& r : kinds) {
    if (!r) continue;
    for (std::size_t k = 0; k < r->outputs.size(); ++k) {
      parts.push_back(fmt::format("part_ptr{}", parts.size()));
    }
  }
  const std::string part_params = fmt::format("{}", fmt::join(parts, ", "));
  SplitReduction out;
  out.kernel = kernel;
  out.reductions = reductions;
  out.partials = static_cast<int>(parts.size());
  out.dtype = "torch." + type;
  std::string header;
  for (std::size_t i = 0; i + 1 < def_at; ++i) {
    header += lines[i] + "\n";
  }
  if (walks) {
    std::string text = walks_kernel(
        lines, WalkLines{def_at, loop_at, body_end, after_end, walk_end}, kernel, runtime,
        mask_line, prologue, after, walk, kinds, lane_level, lanes, loop_only);
    if (text.empty()) return std::nullopt;
    out.walks = true;
    out.source = header +
                 "from kernelopt.recipes.row_two_pass import _row_barrier as "
                 "kernelopt_row_barrier\n\n\n" +
                 text;
    return out;
  }

  // The partial kernel.
  std::string partial = fmt::format(
      "@triton.jit\ndef {}_split_partial({}, {}, r0_chunk, XBLOCK : tl.constexpr, R0_BLOCK : "
      "tl.constexpr):\n",
      kernel, runtime, part_params);
  for (std::size_t i = def_at + 1; i < loop_at; ++i) {
    partial += lines[i] + "\n";
  }
  partial += pad + "r0_split = tl.program_id(1)\n";
  partial += pad + "r0_start = r0_split * r0_chunk\n";
  partial += pad + "r0_end = tl.minimum(r0_start + r0_chunk, r0_numel)\n";
  partial += pad + "for r0_offset in tl.range(r0_start, r0_end, R0_BLOCK):\n";
  for (std::size_t i = loop_at + 1; i < body_end; ++i) {
    partial += mask_line && i == *mask_line
                   ? std::string(py::indentation(lines[i]), ' ') + "r0_mask = r0_index < r0_end\n"
                   : lines[i] + "\n";
  }
  int part = 0;
  for (std::size_t k = 0; k < after.size(); ++k) {
    if (!kinds[k] && !lane_level[k]) continue;
    for (std::size_t i = after[k].first; i <= after[k].last; ++i) {
      partial += lines[i] + "\n";
    }
    if (!kinds[k]) continue;
    for (const auto& value : kinds[k]->outputs) {
      partial += fmt::format("{}tl.store(part_ptr{} + (r0_split * xnumel + xindex), {}{}, xmask)\n",
                             pad, part++, value, kinds[k]->keeps_dim ? "" : "[:, None]");
    }
  }

  // The combine kernel: the prologue's row names, the partials, the epilogue.
  std::string combine = fmt::format(
      "@triton.jit\ndef {}_split_combine({}, {}, n_split, XBLOCK : tl.constexpr, SPLIT_BLOCK : "
      "tl.constexpr):\n",
      kernel, runtime, part_params);
  std::set<std::string> dropped = {"R0_BLOCK", "RBLOCK", "r0_base", "rbase"};
  dropped.insert(accumulators.begin(), accumulators.end());
  for (const auto& s : prologue) {
    if (uses_any(s, dropped) ||
        std::any_of(s.targets.begin(), s.targets.end(),
                    [&](const std::string& t) { return dropped.count(t) != 0; })) {
      dropped.insert(s.targets.begin(), s.targets.end());
      continue;
    }
    for (std::size_t i = s.first; i <= s.last; ++i) {
      combine += lines[i] + "\n";
    }
  }
  combine += pad + "split_index = tl.arange(0, SPLIT_BLOCK)[None, :]\n";
  combine += pad + "split_mask = (split_index < n_split) & xmask\n";
  for (std::size_t k = 0; k < parts.size(); ++k) {
    combine += fmt::format(
        "{0}part{1} = tl.load(part_ptr{1} + (split_index * xnumel + xindex), split_mask, "
        "other=0.0)\n",
        pad, k);
  }
  part = 0;
  for (std::size_t k = 0; k < after.size(); ++k) {
    if (lane_level[k]) continue;
    if (!kinds[k]) {
      if (uses_any(after[k], dropped)) return std::nullopt;
      for (std::size_t i = after[k].first; i <= after[k].last; ++i) {
        combine += lines[i] + "\n";
      }
      continue;
    }
    combine += pad + combine_statement(*kinds[k], part) + "\n";
  }

  out.source = header + partial + "\n\n" + combine;
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
  for (int k = 0; k < count; ++k) {
    const std::string var = fmt::format("_{}part{}", prefix, k);
    body += fmt::format("    {} = torch.empty(({}, {}), dtype={}, device={}.device)\n", var, split,
                        rows, dtype, device);
    parts.push_back(var);
  }
  const std::int64_t combine_rows =
      std::clamp<std::int64_t>(2048 / split_block, 1, next_power_of_two(rows));
  return fmt::format(
             "    {k}_split_partial[(triton.cdiv({rows}, {xb}), {split}, 1)]({args}, {parts}, "
             "{chunk}, XBLOCK={xb}, R0_BLOCK={block}, num_warps={warps}, num_stages={stages})\n",
             fmt::arg("k", kernel), fmt::arg("rows", rows), fmt::arg("xb", xblock),
             fmt::arg("split", split), fmt::arg("args", fmt::join(call_args, ", ")),
             fmt::arg("parts", fmt::join(parts, ", ")), fmt::arg("chunk", chunk),
             fmt::arg("block", block), fmt::arg("warps", settings.value(prefix + "num_warps", 4)),
             fmt::arg("stages", settings.value(prefix + "num_stages", 1))) +
         fmt::format(
             "    {k}_split_combine[(triton.cdiv({rows}, {cx}), 1, 1)]({args}, {parts}, {split}, "
             "XBLOCK={cx}, SPLIT_BLOCK={sb}, num_warps=4, num_stages=1)\n",
             fmt::arg("k", kernel), fmt::arg("rows", rows), fmt::arg("cx", combine_rows),
             fmt::arg("args", fmt::join(call_args, ", ")),
             fmt::arg("parts", fmt::join(parts, ", ")), fmt::arg("split", split),
             fmt::arg("sb", split_block));
}

namespace {

std::optional<RecipeMatch> split_on(const std::optional<RecipeMatch>& base, const std::string& on) {
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
    for (auto s : config_settings(RecipeMatch{"config", launch, ""})) {
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
  const std::string why = fmt::format(
      "Inductor's looped reduction {} split: each row's chunks reduced by programs of their own "
      "into partial results, which a second kernel combines to finish the row (a kernel that "
      "walks its rows twice: the same programs, after a barrier, each its own chunk){}",
      fmt::join(what, "; "),
      on.empty() ? "" : fmt::format(" (on top of the {} rewrite: {})", on, base->why));
  nlohmann::json params =
      base->params.contains("launches") ? base->params : nlohmann::json::object();
  params["kind"] = "segment";
  params["launches"] = launches;
  params["split_on"] = on.empty() ? "config" : on;
  return RecipeMatch{"split", params, why};
}

}  // namespace

std::optional<RecipeMatch> split_of(const std::optional<RecipeMatch>& fuse,
                                    const std::optional<RecipeMatch>& rewrite,
                                    const std::optional<RecipeMatch>& config) {
  // The split adds to what the other rewrites did to the segment: fuse's launches where fuse
  // applies (L2/85's norm computed inside its pool), else the rewrite's (shifted sums, recompute
  // instead of reload), else config's relaunch; the next where one leaves nothing to split (a
  // one-pass rewrite has no loop left). A launch's parameters in a form this does not expect
  // make no split, not a failed search.
  for (const auto& [base, on] :
       {std::pair{&fuse, "fuse"}, std::pair{&rewrite, "rewrite"}, std::pair{&config, ""}}) {
    try {
      if (auto split = split_on(*base, on)) return split;
    } catch (const nlohmann::json::exception&) {
      continue;
    }
  }
  return std::nullopt;
}

std::optional<RecipeMatch> match_split(const inductor::OutputCode& code,
                                       const analysis::DispatchMap& map,
                                       const analysis::Segment& segment) {
  return split_of(match_fuse(code, map, segment), match_rewrite(code, map, segment),
                  match_config(code, map, segment));
}

}  // namespace kernelopt::search
