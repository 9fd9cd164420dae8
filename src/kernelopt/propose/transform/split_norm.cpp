// A persistent norm split in two for the fuse rewrite: its statistics kernel, which stores each
// row's statistics instead of the normalized row, and the apply kernel that fuse then inlines into
// the row buffer's readers (fuse.hpp's split_persistent says which kernels qualify).
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/detail/kernel_function.hpp"
#include "kernelopt/propose/detail/straight_line.hpp"
#include "kernelopt/propose/transform/buffer_names.hpp"
#include "kernelopt/propose/transform/fuse.hpp"

namespace kernelopt::propose {

namespace py = inductor::detail;

std::optional<SplitNorm> split_persistent(const std::string& module, const std::string& source) {
  const auto f = detail::function_of(source);
  const auto m = detail::function_of(module);
  if (!f || !m) return std::nullopt;

  // Straight-line statements, one per line, each with what it assigns.
  struct Line {
    std::string text;
    std::string lhs;
    std::string rhs;
  };

  std::vector<Line> lines;
  std::int64_t rows = 0;
  std::int64_t row = 0;
  std::optional<std::size_t> store;
  for (const auto& raw : f->body) {
    const std::string t(py::trim(raw));
    if (t.empty()) continue;
    if (detail::indent_of(raw).size() != 4 || py::bracket_balance(t) != 0) return std::nullopt;
    for (const char* keyword : {"for ", "while ", "if ", "else", "return"}) {
      if (t.rfind(keyword, 0) == 0) return std::nullopt;
    }
    if (t.find("tl.atomic") != std::string::npos) return std::nullopt;
    const auto [lhs, rhs] = py::split_keyword(t);
    if (lhs == "xnumel") rows = std::stoll(rhs);
    if (lhs == "r0_numel") row = std::stoll(rhs);
    if (py::call_args(t, "tl.store")) {
      if (store) return std::nullopt;  // one store: the normalized row
      store = lines.size();
    }
    lines.push_back({t, lhs, rhs});
  }
  if (!store || rows <= 0 || row <= 0) return std::nullopt;
  const auto stored = py::call_args(lines[*store].text, "tl.store");
  if (stored->size() != 3) return std::nullopt;
  const auto target = detail::pointer_plus((*stored)[0]);
  const std::string value = (*stored)[1];
  if (!target || !identifier(value)) return std::nullopt;
  std::map<std::string, std::size_t> defined;  // name -> its (only) assignment
  for (std::size_t k = 0; k < lines.size(); ++k) {
    if (lines[k].lhs.empty()) continue;
    for (const auto& name : py::split_top_level(lines[k].lhs)) {
      const std::string n(py::trim(name));
      if (defined.count(n) != 0) return std::nullopt;
      defined[n] = k;
    }
  }
  const auto rhs_of = [&](const std::string& name) -> std::string {
    const auto it = defined.find(name);
    return it == defined.end() ? "" : lines[it->second].rhs;
  };
  // The store's address: `r0_A + ROW*xB` with r0_A = r0_index and xB = xindex (contiguous rows).
  std::string address = target->second;
  if (address.size() > 2 && address.front() == '(' && address.back() == ')') {
    address = address.substr(1, address.size() - 2);
  }
  const auto terms = py::split_top_level(address, '+');
  if (terms.size() != 2) return std::nullopt;
  const std::string col_var(py::trim(terms[0]));
  const std::string row_term(py::trim(terms[1]));
  if (rhs_of(col_var) != "r0_index" ||
      row_term != fmt::format("{}*{}", row, row_term.substr(row_term.find('*') + 1)) ||
      rhs_of(row_term.substr(row_term.find('*') + 1)) != "xindex") {
    return std::nullopt;
  }
  // Row values: a reduction's results, and what is computed from them and constants alone.
  static const std::set<std::string> header = {
      "xnumel", "r0_numel", "R0_BLOCK",  "rnumel",  "RBLOCK",  "xoffset", "xindex",
      "xmask",  "r0_index", "r0_offset", "r0_mask", "roffset", "rindex"};
  std::set<std::string> row_values;
  for (const auto& l : lines) {
    if (l.lhs.empty() || header.count(l.lhs) != 0) continue;
    bool reduction = false;
    for (const char* call : {"tl.sum(", "tl.max(", "tl.min(", "tl.reduce(", "triton_helpers.max2(",
                             "triton_helpers.min2(", "welford", "online_softmax"}) {
      reduction = reduction || l.rhs.find(call) != std::string::npos;
    }
    bool from_rows = !reduction;
    bool any_row = false;
    for (const auto& id : py::identifiers(l.rhs)) {
      if (defined.count(id) == 0 || header.count(id) != 0) {
        from_rows = from_rows && header.count(id) == 0;
        continue;
      }
      if (row_values.count(id) != 0) {
        any_row = true;
      } else if (rhs_of(id).rfind("tl.full(", 0) != 0) {
        from_rows = false;
      }
    }
    if (reduction || (from_rows && any_row)) {
      for (const auto& name : py::split_top_level(l.lhs)) {
        row_values.insert(std::string(py::trim(name)));
      }
    }
  }
  // The value's statements, back from the store; a row value becomes a load of its statistic.
  SplitNorm out;
  out.rows = rows;
  out.row = row;
  std::set<std::size_t> needed;
  std::vector<std::string> pending = {value};
  std::set<std::string> seen;
  while (!pending.empty()) {
    const std::string name = pending.back();
    pending.pop_back();
    if (!seen.insert(name).second || header.count(name) != 0 || defined.count(name) == 0) continue;
    if (row_values.count(name) != 0) {
      out.stats.push_back(name);
      continue;
    }
    needed.insert(defined.at(name));
    for (const auto& id : py::identifiers(lines[defined.at(name)].rhs)) {
      // The apply kernel has a flat index, its row and column, and a mask of its own: a row
      // mask, an offset or a block size of the kernel's tiles means nothing there.
      if (header.count(id) != 0 && id != "xindex" && id != "r0_index" && id != "xmask") {
        return std::nullopt;
      }
      pending.push_back(id);
    }
  }
  if (out.stats.empty()) return std::nullopt;
  std::sort(out.stats.begin(), out.stats.end(),
            [&](const std::string& a, const std::string& b) { return defined[a] < defined[b]; });
  // ---- the apply kernel: one element per program lane, at its offset in the stored buffer ----
  const auto rename = [&](const std::string& id) -> std::string {
    if (id == "xindex") return "ko_row";
    if (id == "r0_index") return "ko_col";
    if (id.rfind("r0_", 0) == 0) return "ko_c" + id.substr(3);
    return id;
  };
  std::vector<std::string> params;
  for (const auto& name : f->params) {
    if (detail::pointer_param(name)) params.push_back(name);
  }
  // Its preamble, the statistics' loads, then the value's statements in the kernel's order.
  std::string body = fmt::format(
      "    xnumel = {}\n    xoffset = tl.program_id(0) * XBLOCK\n"
      "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n    xmask = xindex < xnumel\n"
      "    ko_row = xindex // {}\n    ko_col = xindex % {}\n",
      rows * row, row, row);
  std::string stats_stores;
  for (std::size_t i = 0; i < out.stats.size(); ++i) {
    // Pointer names as Inductor's: the apply kernel reads the statistics, the kernel writes them.
    const std::string param = fmt::format("in_ptr_stats{}", i);
    params.push_back(param);
    body += fmt::format("    {} = tl.load({} + (ko_row), xmask)\n", out.stats[i], param);
    stats_stores +=
        fmt::format("    tl.store(out_ptr_stats{} + (xindex), {}, xmask)\n", i, out.stats[i]);
  }
  for (std::size_t k = 0; k < lines.size(); ++k) {
    if (needed.count(k) == 0) continue;
    std::string rhs = lines[k].rhs;
    if (const auto b = py::call_args(rhs, "tl.broadcast_to"); b && b->size() == 2) {
      rhs = (*b)[0];  // one element per lane: nothing to broadcast
    }
    if (const auto l = py::call_args(rhs, "tl.load")) {
      auto args = *l;
      if (args.size() == 1) args.emplace_back("None");  // a scalar: `tl.load(in_ptr1 + (0))`
      if (args[1].find('=') == std::string::npos && args[1] != "None") args[1] = "xmask";
      rhs = fmt::format("tl.load({})", fmt::join(args, ", "));
    }
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
             {"[1, 1]", "[1]"}, {"[:, None]", ""}, {"[None, :]", ""}}) {
      for (std::size_t at = rhs.find(from); at != std::string::npos; at = rhs.find(from, at)) {
        rhs.replace(at, from.size(), to);
      }
    }
    std::string text = detail::map_identifiers(lines[k].lhs + " = " + rhs, rename);
    for (const char* banned : {"XBLOCK", "R0_BLOCK", "RBLOCK", "r0_", "tl.arange", "tl.sum",
                               "tl.reduce", "tl.store", "xmask ="}) {
      if (text.find(banned) != std::string::npos) return std::nullopt;
    }
    body += "    " + text + "\n";
  }
  body += fmt::format("    tl.store({} + (xindex), {}, xmask)\n", target->first, value);
  const std::string kernel = f->head[f->def].substr(4, f->head[f->def].find('(') - 4);
  std::string apply;
  for (std::size_t i = 0; i < m->def; ++i) {
    apply += m->head[i] + "\n";
  }
  apply += fmt::format("def {}_apply({}, xnumel, XBLOCK : tl.constexpr):\n", kernel,
                       fmt::join(params, ", "));
  out.apply_source = apply + body;
  out.apply_params = params;
  // ---- the statistics kernel: the row store replaced by the statistics' stores ----
  std::vector<std::string> stats_params;
  for (std::size_t s = 0; s < out.stats.size(); ++s) {
    stats_params.push_back(fmt::format("out_ptr_stats{}", s));
  }
  const auto stats_def = detail::def_with_pointers(*f, kernel, stats_params);
  if (!stats_def) return std::nullopt;
  std::string stats;
  for (std::size_t i = 0; i < f->head.size(); ++i) {
    stats += (i == f->def ? *stats_def : f->head[i]) + "\n";
  }
  for (const auto& raw : f->body) {
    if (std::string(py::trim(raw)) == lines[*store].text) continue;
    stats += raw + "\n";
  }
  stats += stats_stores;
  for (const auto& line : f->tail) {
    stats += line + "\n";
  }
  out.stats_source = stats;
  return out;
}

}  // namespace kernelopt::propose
