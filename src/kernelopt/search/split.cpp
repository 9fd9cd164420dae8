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
// shifted sums write), and whose epilogue uses nothing of the loop. An arg-reduction, a product, an
// online softmax or a second walk: left alone.
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

  // The body: a prologue, one top-level loop, what follows it.
  std::size_t loop_at = lines.size();
  for (std::size_t i = def_at + 1; i < lines.size(); ++i) {
    const std::string_view t = py::trim(lines[i]);
    const bool loop = t.rfind("for ", 0) == 0 || t.rfind("while ", 0) == 0;
    if (!loop) continue;
    if (loop_at != lines.size() || py::indentation(lines[i]) != 4 ||
        (t != "for r0_offset in tl.range(0, r0_numel, R0_BLOCK):" &&
         t != "for r0_offset in range(0, r0_numel, R0_BLOCK):")) {
      return std::nullopt;  // a second loop, a nested one, or one of another form
    }
    loop_at = i;
  }
  if (loop_at == lines.size()) return std::nullopt;
  std::size_t body_end = loop_at + 1;
  while (body_end < lines.size() &&
         (py::trim(lines[body_end]).empty() || py::indentation(lines[body_end]) > 4)) {
    ++body_end;
  }
  const std::vector<Stmt> prologue = statements(lines, def_at + 1, loop_at);
  const std::vector<Stmt> body = statements(lines, loop_at + 1, body_end);
  const std::vector<Stmt> after = statements(lines, body_end, lines.size());
  if (source.find("tl.atomic_") != std::string::npos ||
      source.find("tl.program_id(1)") != std::string::npos) {
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
  std::size_t part = 0;
  for (std::size_t k = 0; k < after.size(); ++k) {
    if (!kinds[k] && !lane_level[k]) continue;
    for (std::size_t i = after[k].first; i <= after[k].last; ++i) {
      partial += lines[i] + "\n";
    }
    if (!kinds[k]) continue;
    for (const auto& out : kinds[k]->outputs) {
      partial += fmt::format("{}tl.store(part_ptr{} + (r0_split * xnumel + xindex), {}{}, xmask)\n",
                             pad, part++, out, kinds[k]->keeps_dim ? "" : "[:, None]");
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
    const Reduce& r = *kinds[k];
    const std::string dim = r.keeps_dim ? "[:, None]" : "";
    if (r.op == "welford") {
      combine += fmt::format(
          "{}{}, {}, {} = triton_helpers.welford(part{}, part{}, tl.where(split_mask, part{}, "
          "0.0), 1)\n",
          pad, r.outputs[0], r.outputs[1], r.outputs[2], part, part + 1, part + 2);
      part += 3;
      continue;
    }
    const char* identity = r.op == "sum"   ? "0.0"
                           : r.op == "max" ? "float(\"-inf\")"
                                           : "float(\"inf\")";
    const char* callee = r.op == "sum"   ? "tl.sum"
                         : r.op == "max" ? "triton_helpers.max2"
                                         : "triton_helpers.min2";
    combine += fmt::format("{}{} = {}(tl.where(split_mask, part{}, {}), 1){}\n", pad, r.outputs[0],
                           callee, part++, identity, dim);
  }

  SplitReduction out;
  out.kernel = kernel;
  out.reductions = reductions;
  out.partials = static_cast<int>(parts.size());
  out.dtype = "torch." + type;
  std::string header;
  for (std::size_t i = 0; i + 1 < def_at; ++i) {
    header += lines[i] + "\n";
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
  std::vector<std::string> parts;
  for (int k = 0; k < count; ++k) {
    const std::string var = fmt::format("_{}part{}", prefix, k);
    body += fmt::format("    {} = torch.empty(({}, {}), dtype={}, device={}.device)\n", var, split,
                        rows, dtype, device);
    parts.push_back(var);
  }
  const std::int64_t split_block = std::max<std::int64_t>(2, next_power_of_two(split));
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

std::optional<RecipeMatch> split_match(const std::optional<RecipeMatch>& fuse,
                                       const std::optional<RecipeMatch>& rewrite,
                                       const std::optional<RecipeMatch>& config) {
  // The split adds to what the other rewrites did to the segment: fuse's launches where fuse
  // applies (L2/85's norm computed inside its pool), else the rewrite's (shifted sums, recompute
  // instead of reload), else config's relaunch.
  const std::optional<RecipeMatch>& base = fuse ? fuse : rewrite ? rewrite : config;
  const std::string on = fuse ? "fuse" : rewrite ? "rewrite" : "";
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
    if (rows > kSplitMostRows || row < kSplitLeastRow) continue;
    // Shifted sums first where the kernel keeps a Welford loop: the split adds programs, the
    // sums take the division out of each element.
    std::string source = launch.at("source").get<std::string>();
    if (auto s = shifted_sums_source(source)) source = s->source;
    const bool sums = source.find("_dx = tl.where(") != std::string::npos;
    const auto split = split_reduction_source(source);
    if (!split) continue;
    // Starting settings: config's tiles, each with as many chunks a row as make about 4096
    // programs (2 to 64, each chunk at least two R0_BLOCKs).
    std::vector<nlohmann::json> settings;
    for (auto s : config_settings(RecipeMatch{"config", launch, ""})) {
      const std::int64_t xblock = s.value("XBLOCK", std::int64_t{1});
      const std::int64_t block = s.value("R0_BLOCK", std::int64_t{1024});
      const std::int64_t programs = (rows + xblock - 1) / xblock;
      std::int64_t want = next_power_of_two((kSplitPrograms + programs - 1) / programs);
      want = std::min<std::int64_t>({want, 64, row / (2 * block)});
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
                                 {"shifted_sums", sums}};
    launch["settings"] = settings;
    what.push_back(fmt::format("{} ({} rows of {}{})", launch.at("kernel").get<std::string>(), rows,
                               row, sums ? ", its Welford loop as shifted sums" : ""));
  }
  if (what.empty()) return std::nullopt;
  const std::string why = fmt::format(
      "Inductor's looped reduction {} split: each row's chunks reduced by programs of their own "
      "into partial results, a second kernel combining them and finishing the row{}",
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
  // A launch's parameters in a form this does not expect make no split, not a failed search.
  try {
    return split_match(fuse, rewrite, config);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

std::optional<RecipeMatch> match_split(const inductor::OutputCode& code,
                                       const analysis::DispatchMap& map,
                                       const analysis::Segment& segment) {
  return split_of(match_fuse(code, map, segment), match_rewrite(code, map, segment),
                  match_config(code, map, segment));
}

}  // namespace kernelopt::search
