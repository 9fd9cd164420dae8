// The parts of an Inductor looped reduction that the split and retile rewrites rewrite
// (detail/looped_reduction.hpp), and the combine kernel both write.
#include "kernelopt/propose/detail/looped_reduction.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"

namespace kernelopt::propose::detail {

namespace py = inductor::detail;

namespace {

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

}  // namespace

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

// The statement that combines a reduction's partials (loaded as part<N>, N from `part`, which it
// advances), a row's chunks along dimension 1: a sum of sums, a max of maxima, a min of minima,
// Welford's combine of (mean, M2, weight) triples.
const char* reduction_callee(const std::string& op) {
  return op == "welford" ? "triton_helpers.welford"
         : op == "sum"   ? "tl.sum"
         : op == "max"   ? "triton_helpers.max2"
                         : "triton_helpers.min2";
}

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
  const char* callee = reduction_callee(r.op);
  return fmt::format("{} = {}(tl.where(split_mask, part{}, {}), 1){}", r.outputs[0], callee, part++,
                     identity, r.keeps_dim ? "[:, None]" : "");
}

std::optional<LoopedReduction> parse_looped_reduction(const std::string& source) {
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

  LoopedReduction out;
  out.header.clear();
  for (std::size_t i = 0; i + 1 < def_at; ++i) {
    out.header += lines[i] + "\n";
  }
  out.kernel = kernel;
  out.runtime = fmt::format("{}", fmt::join(params, ", "));
  out.def_at = def_at;
  out.loop_at = loop_at;
  out.body_end = body_end;
  out.after_end = after_end;
  out.walk_end = walk_end;
  out.walks = walks;
  out.prologue = prologue;
  out.body = body;
  out.after = after;
  out.walk = walk;
  out.mask_line = mask_line;
  out.accumulators = accumulators;
  out.type = type;
  out.lanes = lanes;
  out.loop_only = loop_only;
  out.kinds = kinds;
  out.lane_level = lane_level;
  out.reductions = reductions;
  for (const auto& r : kinds) {
    if (!r) continue;
    for (std::size_t k = 0; k < r->outputs.size(); ++k) {
      out.parts.push_back(fmt::format("part_ptr{}", out.parts.size()));
    }
  }
  out.lines = std::move(lines);
  return out;
}

std::string combine_kernel(const LoopedReduction& r, const std::string& at) {
  const std::string pad(4, ' ');
  const std::string part_params = fmt::format("{}", fmt::join(r.parts, ", "));
  const auto& lines = r.lines;
  const auto& after = r.after;
  const auto& kinds = r.kinds;
  const auto& lane_level = r.lane_level;
  // The combine kernel: the prologue's row names, the partials, the epilogue.
  std::string combine = fmt::format(
      "@triton.jit\ndef {}_split_combine({}, {}, n_split, XBLOCK : tl.constexpr, SPLIT_BLOCK : "
      "tl.constexpr):\n",
      r.kernel, r.runtime, part_params);
  std::set<std::string> dropped = {"R0_BLOCK", "RBLOCK", "r0_base", "rbase"};
  dropped.insert(r.accumulators.begin(), r.accumulators.end());
  for (const auto& s : r.prologue) {
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
  for (std::size_t k = 0; k < r.parts.size(); ++k) {
    combine += fmt::format("{0}part{1} = tl.load(part_ptr{1} + ({2}), split_mask, other=0.0)\n",
                           pad, k, at);
  }
  int part = 0;
  for (std::size_t k = 0; k < after.size(); ++k) {
    if (lane_level[k]) continue;
    if (!kinds[k]) {
      if (uses_any(after[k], dropped)) return "";
      for (std::size_t i = after[k].first; i <= after[k].last; ++i) {
        combine += lines[i] + "\n";
      }
      continue;
    }
    combine += pad + combine_statement(*kinds[k], part) + "\n";
  }
  return combine;
}

}  // namespace kernelopt::propose::detail
