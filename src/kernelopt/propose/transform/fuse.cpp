// The fuse rewrite (the rewrite proposer): Inductor sometimes writes a pointwise result
// to memory only for the next kernel to read it back at several addresses per element, since
// inlining it would repeat its work: a norm's output before a pooling window (L2/85 writes the
// whole normalized tensor and reads it again, 1 GB of traffic for a 32 MB result). The rewrite
// drops the producer's launch and computes its value at each address the consumer loads instead.
// The producer's extra work is a few loads of per-channel parameters and statistics (cached) and
// arithmetic; the write and the reread of the intermediate disappear.
//
// Text level: the producer's body (its index definitions, loads and arithmetic) is copied in front
// of every load of the intermediate in the consumer, its names prefixed per copy, `xindex`
// replaced by the load's address expression and its load masks by the consumer's mask. The value
// is cast to the intermediate's element type (what the load would have returned), and a masked
// load's `other` is kept with tl.where.
#include "kernelopt/propose/transform/fuse.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/detail/straight_line.hpp"
#include "kernelopt/propose/registry.hpp"
#include "kernelopt/propose/transform/buffer_names.hpp"
#include "kernelopt/propose/transform/config.hpp"
#include "kernelopt/propose/transform/relaunch.hpp"
#include "kernelopt/propose/transform/rewrite.hpp"

namespace kernelopt::propose {

namespace {

namespace py = inductor::detail;

struct Function {
  std::vector<std::string> head;  // the module text's lines before the body (decorator, def)
  std::size_t def = 0;            // index of the `def` line in head
  std::vector<std::string> params;
  std::vector<std::string> body;  // indented lines after the def
  std::vector<std::string> tail;  // lines after the body
};

// The @triton.jit function of a kernel's module text, or nullopt when the def is not one line.
std::optional<Function> function_of(const std::string& source) {
  Function f;
  const auto lines = py::split_lines(source);
  std::size_t i = 0;
  bool found = false;
  for (; i < lines.size(); ++i) {
    f.head.emplace_back(lines[i]);
    if (lines[i].rfind("def ", 0) == 0) {
      found = true;
      break;
    }
  }
  if (!found) return std::nullopt;
  f.def = f.head.size() - 1;
  const std::string def = f.head.back();
  const std::size_t open = def.find('(');
  const std::size_t close = open == std::string::npos ? open : py::find_closing(def, open);
  if (close == std::string::npos || def.substr(close) != "):") return std::nullopt;
  for (const auto& piece :
       py::split_top_level(std::string_view(def).substr(open + 1, close - open - 1))) {
    const std::size_t colon = piece.find(':');
    f.params.emplace_back(py::trim(colon == std::string::npos
                                       ? std::string_view(piece)
                                       : std::string_view(piece).substr(0, colon)));
  }
  for (++i; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (!line.empty() && line.rfind("    ", 0) != 0) break;
    f.body.emplace_back(line);
  }
  for (; i < lines.size(); ++i) {
    f.tail.emplace_back(lines[i]);
  }
  while (!f.body.empty() && py::trim(f.body.back()).empty()) {
    f.body.pop_back();
  }
  return f;
}

using detail::map_identifiers;

bool uses(const std::string& line, const std::string& name) {
  bool found = false;
  map_identifiers(line, [&](const std::string& id) {
    found = found || id == name;
    return id;
  });
  return found;
}

std::string indent_of(const std::string& line) {
  return line.substr(0, line.find_first_not_of(' '));
}

// "PTR + (INDEX)" or "PTR + INDEX": {PTR, INDEX}.
std::optional<std::pair<std::string, std::string>> pointer_plus(const std::string& arg) {
  const std::size_t plus = arg.find(" + ");
  if (plus == std::string::npos) return std::nullopt;
  const std::string ptr(py::trim(std::string_view(arg).substr(0, plus)));
  if (!identifier(ptr)) return std::nullopt;
  return std::pair{ptr, std::string(py::trim(std::string_view(arg).substr(plus + 3)))};
}

const std::map<std::string, std::string>& element_types() {
  static const std::map<std::string, std::string> types = {{"fp32", "tl.float32"},
                                                           {"fp16", "tl.float16"},
                                                           {"bf16", "tl.bfloat16"},
                                                           {"fp64", "tl.float64"}};
  return types;
}

// The element type of a pointer parameter from the decorator's signature ('out_ptr0': '*fp32').
std::optional<std::string> element_type(const std::string& source, const std::string& param) {
  const std::string key = "'" + param + "': '*";
  const std::size_t at = source.find(key);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t start = at + key.size();
  const std::size_t end = source.find('\'', start);
  if (end == std::string::npos) return std::nullopt;
  const auto it = element_types().find(source.substr(start, end - start));
  if (it == element_types().end()) return std::nullopt;
  return it->second;
}

bool pointer_param(const std::string& name) {
  return name.rfind("in_ptr", 0) == 0 || name.rfind("out_ptr", 0) == 0 ||
         name.rfind("in_out_ptr", 0) == 0;
}

// The function's `def` line renamed `name`, with `added` parameters after its last pointer
// parameter (the others as written, annotations kept); nullopt when it has no pointer.
std::optional<std::string> def_with_pointers(const Function& f,
                                             const std::string& name,
                                             const std::vector<std::string>& added) {
  std::string last_pointer;
  for (const auto& param : f.params) {
    if (pointer_param(param)) last_pointer = param;
  }
  if (last_pointer.empty()) return std::nullopt;
  const std::string& def = f.head[f.def];
  const std::size_t open = def.find('(');
  const auto written =
      py::split_top_level(std::string_view(def).substr(open + 1, def.size() - open - 3));
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < written.size(); ++i) {
    texts.push_back(written[i]);
    if (f.params[i] == last_pointer) texts.insert(texts.end(), added.begin(), added.end());
  }
  return fmt::format("def {}({}):", name, fmt::join(texts, ", "));
}

// A launch's arguments with `extra` after its last pointer argument (the last one with a root).
nlohmann::json args_with(const nlohmann::json& args, const nlohmann::json& extra) {
  std::size_t last_pointer = 0;
  for (std::size_t a = 0; a < args.size(); ++a) {
    if (args[a].contains("root")) last_pointer = a;
  }
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t a = 0; a < args.size(); ++a) {
    out.push_back(args[a]);
    if (a == last_pointer) out.insert(out.end(), extra.begin(), extra.end());
  }
  return out;
}

}  // namespace

std::optional<SplitNorm> split_persistent(const std::string& module, const std::string& source) {
  const auto f = function_of(source);
  const auto m = function_of(module);
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
    if (indent_of(raw).size() != 4 || py::bracket_balance(t) != 0) return std::nullopt;
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
  const auto target = pointer_plus((*stored)[0]);
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
    if (pointer_param(name)) params.push_back(name);
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
    std::string text = map_identifiers(lines[k].lhs + " = " + rhs, rename);
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
  const auto stats_def = def_with_pointers(*f, kernel, stats_params);
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

std::optional<Inlined> inline_producer(const std::string& p_source,
                                       const std::string& c_source,
                                       const std::string& c_param) {
  // Inductor's module text (its decorator removed), or a plain @triton.jit function.
  const auto plain = [](const std::string& source) {
    std::string stripped = without_heuristics(source);
    return stripped.empty() ? source : stripped;
  };
  const auto p = function_of(plain(p_source));
  const auto c = function_of(plain(c_source));
  if (!p || !c) return std::nullopt;
  if (std::find(c->params.begin(), c->params.end(), c_param) == c->params.end()) {
    return std::nullopt;
  }
  // ---- the producer: preamble dropped, one store at xindex, nothing that depends on XBLOCK ----
  std::vector<std::string> body;
  std::string store_ptr;
  std::string stored;
  std::string index_var = "xindex";
  for (const auto& line : p->body) {
    const std::string t(py::trim(line));
    if (t.empty() || t.rfind("xnumel = ", 0) == 0 || t.rfind("xoffset = ", 0) == 0 ||
        t.rfind("xindex = ", 0) == 0 || t.rfind("xmask = ", 0) == 0) {
      continue;
    }
    if (const auto args = py::call_args(t, "tl.store")) {
      if (!store_ptr.empty() || args->size() < 2) return std::nullopt;  // one store only
      const auto target = pointer_plus((*args)[0]);
      if (!target) return std::nullopt;
      std::string index = target->second;
      if (index.size() > 2 && index.front() == '(' && index.back() == ')') {
        index = index.substr(1, index.size() - 2);
      }
      if (!identifier(index) || !identifier((*args)[1])) return std::nullopt;
      // A store under any other mask than the grid's leaves elements unwritten whose old value a
      // reader may load: not a value of P everywhere.
      if (args->size() > 2 && (*args)[2] != "xmask" && (*args)[2] != "None") return std::nullopt;
      store_ptr = target->first;
      stored = (*args)[1];
      index_var = index;
      continue;
    }
    for (const char* banned :
         {"XBLOCK", "xnumel", "tl.program_id", "tl.arange", "tl.atomic", "tl.store", "tl.reduce",
          "tl.sum", "tl.debug_barrier", "r0_", "RBLOCK", "R0_BLOCK"}) {
      if (t.find(banned) != std::string::npos) return std::nullopt;
    }
    for (const char* keyword : {"for ", "while ", "if ", "else", "return"}) {
      if (t.rfind(keyword, 0) == 0) return std::nullopt;
    }
    body.push_back(t);
  }
  if (store_ptr.empty() ||
      (store_ptr.rfind("out_ptr", 0) != 0 && store_ptr.rfind("in_out_ptr", 0) != 0)) {
    return std::nullopt;
  }
  const auto type = element_type(p_source, store_ptr);
  if (!type) return std::nullopt;
  // The index variable's definition (`x3 = xindex`) goes: the copies use the address directly.
  if (index_var != "xindex") {
    int defined = 0;
    for (auto it = body.begin(); it != body.end();) {
      const auto [name, value] = py::split_keyword(*it);
      if (name == index_var) {
        ++defined;
        if (value != "xindex") return std::nullopt;
        it = body.erase(it);
      } else {
        ++it;
      }
    }
    if (defined != 1) return std::nullopt;
  }
  // Locals, pointer parameters; loads' masks must be theirs to replace.
  std::set<std::string> locals;
  for (auto& line : body) {
    const auto [lhs, rhs] = py::split_keyword(line);
    if (lhs.empty()) return std::nullopt;  // a statement that assigns nothing
    for (const auto& name : py::split_top_level(lhs)) {
      if (!identifier(name)) return std::nullopt;
      locals.insert(name);
    }
    if (const auto args = py::call_args(rhs, "tl.load")) {
      if (args->size() < 2 || ((*args)[1] != "None" && (*args)[1] != "xmask")) return std::nullopt;
      const auto ptr = pointer_plus((*args)[0]);
      if (!ptr || !pointer_param(ptr->first)) return std::nullopt;
      if (ptr->first == store_ptr && store_ptr.rfind("in_out_ptr", 0) != 0) return std::nullopt;
    } else if (uses(line, "xmask")) {
      return std::nullopt;
    }
  }
  std::vector<std::string> new_params;
  std::map<std::string, std::string> param_names;
  for (const auto& name : p->params) {
    if (!pointer_param(name)) continue;
    if (name == store_ptr) {
      param_names[name] = c_param;  // the in-out buffer is the intermediate: C's pointer to it
      continue;
    }
    const std::string renamed = "fused_" + name;
    if (std::find(c->params.begin(), c->params.end(), renamed) != c->params.end()) {
      return std::nullopt;
    }
    param_names[name] = renamed;
    new_params.push_back(renamed);
  }
  // ---- the consumer: every use of c_param is a load ----
  Inlined out;
  std::vector<std::string> fused_body;
  std::vector<bool> pasted;  // per line of fused_body: a line of a copy
  for (const auto& line : c->body) {
    if (!uses(line, c_param)) {
      fused_body.push_back(line);
      pasted.push_back(false);
      continue;
    }
    const auto [lhs, rhs] = py::split_keyword(std::string(py::trim(line)));
    const auto args = py::call_args(rhs, "tl.load");
    if (lhs.empty() || !identifier(lhs) || !args || args->empty()) return std::nullopt;
    const auto address = pointer_plus((*args)[0]);
    if (!address || address->first != c_param || uses(address->second, c_param)) {
      return std::nullopt;
    }
    std::string mask = "None";
    std::string other;
    for (std::size_t i = 1; i < args->size(); ++i) {
      const auto [key, value] = py::split_keyword((*args)[i]);
      if ((key.empty() && i == 1) || key == "mask") {
        mask = value;
      } else if (key == "other") {
        other = value;
      } else if (key != "eviction_policy" && key != "cache_modifier") {
        return std::nullopt;
      }
    }
    if (uses(mask, c_param) || uses(other, c_param)) return std::nullopt;
    const std::string prefix = fmt::format("f{}_", out.loads++);
    const std::string& a = address->second;
    const bool wrapped = a.size() > 1 && a.front() == '(' && py::find_closing(a, 0) == a.size() - 1;
    std::string address_text = wrapped ? a : "(" + a + ")";
    const std::string pad = indent_of(line);
    const auto rename = [&](const std::string& id) -> std::string {
      if (id == "xindex" || id == index_var) return address_text;
      if (locals.count(id) != 0) return prefix + id;
      if (const auto it = param_names.find(id); it != param_names.end()) return it->second;
      return id;
    };
    for (const auto& p_line : body) {
      const auto [p_lhs, p_rhs] = py::split_keyword(p_line);
      std::string text = map_identifiers(p_line, rename);
      if (auto p_args = py::call_args(p_rhs, "tl.load")) {
        // The producer's load, at the consumer's mask (in the consumer's names, not renamed):
        // where the consumer loads nothing the address may be out of bounds.
        for (auto& arg : *p_args) {
          arg = map_identifiers(arg, rename);
        }
        (*p_args)[1] = mask;
        text = fmt::format("{} = tl.load({})", map_identifiers(p_lhs, rename),
                           fmt::join(*p_args, ", "));
      }
      fused_body.push_back(pad + text);
      pasted.push_back(true);
    }
    std::string value = fmt::format("{}{}.to({})", prefix, stored, *type);
    if (!other.empty()) value = fmt::format("tl.where({}, {}, {})", mask, value, other);
    fused_body.push_back(fmt::format("{}{} = {}", pad, lhs, value));
    pasted.push_back(false);
  }
  if (out.loads == 0) return std::nullopt;
  // The copies' index arithmetic simplified, their loads of what depends on fewer dimensions
  // than the tile narrowed, and what several copies compute alike computed once.
  auto tidied = detail::tidy_pasted(fused_body, pasted);
  fused_body = std::move(tidied.body);
  out.merged = tidied.merged;
  const int per_copy = std::max<int>(1, static_cast<int>(body.size()));  // P's statements
  out.cost = std::clamp((tidied.pasted_kept + per_copy - 1) / per_copy, 1, out.loads);
  // ---- the fused module text: C's, renamed, with P's parameters after C's pointers ----
  const std::string& def = c->head[c->def];
  out.kernel = def.substr(4, def.find('(') - 4) + "_fused";
  const auto fused_def = def_with_pointers(*c, out.kernel, new_params);
  if (!fused_def) return std::nullopt;
  std::string text;
  for (std::size_t i = 0; i < c->head.size(); ++i) {
    text += (i == c->def ? *fused_def : c->head[i]) + "\n";
  }
  for (const auto& line : fused_body) {
    text += line + "\n";
  }
  for (const auto& line : c->tail) {
    text += line + "\n";
  }
  out.source = text;
  out.new_params = new_params;
  return out;
}

std::optional<Match> match_fuse(const inductor::OutputCode& code,
                                const analysis::DispatchMap& map,
                                const analysis::Segment& segment) {
  if (segment.extern_call || segment.launches.size() < 2) return std::nullopt;
  const auto all = segment_relaunches(code, map, segment);
  if (!all) return std::nullopt;
  const std::vector<nlohmann::json>& relaunches = *all;
  const auto contains = [](const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  for (std::size_t i = 0; i + 1 < relaunches.size(); ++i) {
    const nlohmann::json& p = relaunches[i];
    const bool persistent = p.at("kind") == "persistent_reduction";
    if ((p.at("kind") != "pointwise" && !persistent) || p.at("grid") != 1) continue;
    const analysis::Launch& p_launch = map.launches[static_cast<std::size_t>(segment.launches[i])];
    // The intermediate: the one buffer P writes, dead after the segment.
    if (p_launch.writes.size() != 1) continue;
    const std::string buffer = p_launch.writes.front();
    if (contains(segment.outputs, buffer) || contains(code.returns, buffer) ||
        contains(code.graph_inputs, buffer)) {
      continue;
    }
    // Its consumers: the later launches of the segment that read it. No launch from P to the
    // last of them may write what P reads (P's reads move to the consumers' time), nor may any
    // statement after P other than a consumer read it.
    std::vector<std::size_t> consumers;
    for (std::size_t j = i + 1; j < relaunches.size(); ++j) {
      const analysis::Launch& l = map.launches[static_cast<std::size_t>(segment.launches[j])];
      if (contains(l.reads, buffer)) consumers.push_back(j);
    }
    if (consumers.empty()) continue;
    std::set<int> consumer_steps;
    for (const std::size_t j : consumers) {
      consumer_steps.insert(map.launches[static_cast<std::size_t>(segment.launches[j])].step);
    }
    bool unsafe = false;
    for (std::size_t s = static_cast<std::size_t>(p_launch.step) + 1; s < code.steps.size(); ++s) {
      if (consumer_steps.count(static_cast<int>(s)) == 0 && contains(code.steps[s].reads, buffer)) {
        unsafe = true;
      }
    }
    for (std::size_t j = i + 1; j <= consumers.back(); ++j) {
      const analysis::Launch& l = map.launches[static_cast<std::size_t>(segment.launches[j])];
      for (const auto& name : l.writes) {
        unsafe = unsafe || contains(p_launch.reads, name) || name == buffer;
      }
    }
    if (unsafe) continue;
    const inductor::TritonKernel* p_kernel = code.kernel(p.at("kernel").get<std::string>());
    if (p_kernel == nullptr) continue;
    // A persistent norm stays, storing only its rows' statistics; its apply step is what is
    // inlined, reading them.
    std::optional<SplitNorm> split;
    nlohmann::json stats_args = nlohmann::json::array();
    if (persistent) {
      split = split_persistent(p_kernel->source, p.at("source").get<std::string>());
      if (!split) continue;
      for (std::size_t k = 0; k < split->stats.size(); ++k) {
        stats_args.push_back({{"param", fmt::format("out_ptr_stats{}", k)},
                              {"from", "internal"},
                              {"root", fmt::format("ko_stats{}_{}", k, buffer)},
                              {"shape", {std::to_string(split->rows)}},
                              {"stride", {"1"}},
                              {"dtype", "torch.float32"}});
      }
    }
    const std::string& p_source = split ? split->apply_source : p_kernel->source;
    std::map<std::size_t, nlohmann::json> fused;
    int loads = 0;
    int merged = 0;  // the copies' statements computed once (straight_line.cpp)
    std::vector<std::string> names;
    for (const std::size_t j : consumers) {
      const nlohmann::json& c = relaunches[j];
      std::string c_param;
      int bound = 0;
      for (const auto& arg : c.at("args")) {
        if (arg.contains("root") && arg.at("root") == buffer) {
          c_param = arg.at("param").get<std::string>();
          ++bound;
        }
      }
      const inductor::TritonKernel* c_kernel = code.kernel(c.at("kernel").get<std::string>());
      if (bound != 1 || c_kernel == nullptr) break;
      const auto inlined = inline_producer(p_source, c_kernel->source, c_param);
      if (!inlined) break;
      // The fused launch: C's arguments, then P's pointers (in P's order) after C's pointers,
      // then a split norm's statistics.
      nlohmann::json extra = nlohmann::json::array();
      for (const auto& arg : p.at("args")) {
        if (!arg.contains("root") || arg.at("root") == buffer) continue;
        nlohmann::json renamed = arg;
        renamed["param"] = "fused_" + arg.at("param").get<std::string>();
        extra.push_back(renamed);
      }
      for (std::size_t k = 0; k < stats_args.size(); ++k) {
        nlohmann::json renamed = stats_args[k];
        renamed["param"] = fmt::format("fused_in_ptr_stats{}", k);
        extra.push_back(renamed);
      }
      if (extra.size() != inlined->new_params.size()) break;
      nlohmann::json f = c;
      f["inlined_loads"] = inlined->loads;
      f["inlined_cost"] = inlined->cost;
      f["args"] = args_with(c.at("args"), extra);
      f["kernel"] = inlined->kernel;
      f["source"] = inlined->source;
      f["fused"] = true;
      fused[j] = std::move(f);
      loads += inlined->loads;
      merged += inlined->merged;
      names.push_back(c.at("kernel").get<std::string>());
    }
    if (fused.size() != consumers.size()) continue;
    nlohmann::json launches = nlohmann::json::array();
    for (std::size_t r = 0; r < relaunches.size(); ++r) {
      if (r == i && split) {
        // The statistics kernel: P's arguments with the statistics after its pointers.
        nlohmann::json stats = p;
        stats["args"] = args_with(p.at("args"), stats_args);
        stats["source"] = split->stats_source;
        stats["split"] = true;
        launches.push_back(std::move(stats));
        continue;
      }
      if (r == i) continue;
      launches.push_back(fused.count(r) != 0 ? fused.at(r) : relaunches[r]);
    }
    // The arithmetic rewrite too (cheap_math.cpp: Mish with one exponential), in every launch but
    // a template.
    int mish = 0;
    for (auto& launch : launches) {
      mish += cheaper_math_launch(launch);
    }
    nlohmann::json params = {{"launches", launches}, {"producer", p.at("kernel")},
                             {"consumers", names},   {"buffer", buffer},
                             {"loads", loads},       {"mish", mish},
                             {"merged", merged}};
    const std::string tidied =
        merged > 0 ? fmt::format(" (the copies' repeated statements computed once: {})", merged)
                   : "";
    if (split) {
      params["split"] = split->stats;
      return Match{
          "fuse", params,
          fmt::format("{} split: its rows' statistics ({}) stored, its normalized rows computed "
                      "inside {} at {} loads of {}: {} is no longer written and reread{}",
                      p.at("kernel").get<std::string>(), fmt::join(split->stats, ", "),
                      fmt::join(names, " and "), loads, buffer, buffer, tidied)};
    }
    return Match{
        "fuse", params,
        fmt::format("{} inlined into {} at {} loads of {}: {} is no longer written and reread{}",
                    p.at("kernel").get<std::string>(), fmt::join(names, " and "), loads, buffer,
                    buffer, tidied)};
  }
  return std::nullopt;
}

namespace {

std::string prefix_of(std::size_t r) {
  return fmt::format("k{}_", r);
}

}  // namespace

// A launch's tile as the fused segment relaunches it. YBLOCK is raised to what the y grid needs
// (an autotuned setting may have relied on the z overflow). A fused kernel holds a copy of the
// producer per inlined load: its tile shrinks so that tile elements times copies stay near what
// one unfused tile holds (4096), halving the largest block, YBLOCK not below what y needs, and
// its warps halved to keep two elements a thread. The copies count at what is left of them once
// the pasted statements are tidied (`inlined_cost`: L2/85's 16 copies of a 22-statement norm
// keep 7 statements each, about 6 whole copies).
nlohmann::json shrink_for_copies(const nlohmann::json& launch, nlohmann::json s) {
  const long min_y = smallest_yblock(launch);  // y_grid_fits: CUDA's 65535 programs in y
  if (s.contains("YBLOCK") && s.at("YBLOCK").get<long>() < min_y) s["YBLOCK"] = min_y;
  const long copies = launch.value("inlined_cost", launch.value("inlined_loads", 1L));
  if (copies <= 1) return s;
  const long cap = std::max(64L, 4096L / copies);
  const auto elements = [&]() {
    long n = 1;
    for (const char* block : {"XBLOCK", "YBLOCK", "R0_BLOCK"}) {
      n *= s.value(block, 1L);
    }
    return n;
  };
  while (elements() > cap) {
    const char* largest = nullptr;
    for (const char* block : {"XBLOCK", "YBLOCK", "R0_BLOCK"}) {
      const long floor = std::string(block) == "YBLOCK" ? min_y : 1L;
      if (s.value(block, 1L) > floor &&
          (largest == nullptr || s.value(block, 1L) > s.value(largest, 1L))) {
        largest = block;
      }
    }
    if (largest == nullptr) break;
    s[largest] = s.value(largest, 1L) / 2;
  }
  // Warps for the shrunk tile: at least two elements a thread (L2/65's pool tile of 256 took 16
  // warps from the unfused kernel's settings, 0.54x; 4 warps, 1.33x).
  if (s.contains("num_warps")) {
    long warps = s.at("num_warps").get<long>();
    while (warps > 1 && warps * 64 > elements()) {
      warps /= 2;
    }
    s["num_warps"] = warps;
  }
  return s;
}

std::vector<nlohmann::json> fuse_settings(const Match& match) {
  const auto& launches = match.params.at("launches");
  std::vector<std::vector<nlohmann::json>> each;
  std::size_t most = 0;
  for (const auto& launch : launches) {
    std::vector<nlohmann::json> own;
    // A launch the rewrite made one pass brings its own settings; the others config's.
    const std::vector<nlohmann::json> start =
        launch.contains("settings") ? launch.at("settings").get<std::vector<nlohmann::json>>()
                                    : config_settings(Match{"config", launch, ""});
    for (const auto& s : start) {
      nlohmann::json shrunk = shrink_for_copies(launch, s);
      if (config_fits(Match{"config", launch, ""}, shrunk) &&
          std::find(own.begin(), own.end(), shrunk) == own.end()) {
        own.push_back(std::move(shrunk));
      }
    }
    // A launch with no setting that fits would run with its defaults, which may not: no
    // candidates then.
    if (own.empty()) return {};
    each.push_back(std::move(own));
    most = std::max(most, each.back().size());
  }
  std::vector<nlohmann::json> out;
  for (std::size_t j = 0; j < most; ++j) {
    nlohmann::json s = nlohmann::json::object();
    for (std::size_t r = 0; r < each.size(); ++r) {
      for (const auto& [key, value] : each[r][j % each[r].size()].items()) {
        s[prefix_of(r) + key] = value;
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<nlohmann::json> fuse_neighbours(const Match& match, const nlohmann::json& settings) {
  // Each launch's neighbours are the config proposer's for that launch alone; the other launches
  // keep their settings. The launch with the most time above its floor first (a segment of ten
  // launches has dozens of neighbours, more than a budget evaluates: L3/47's search spent its
  // rounds on a 0.011 ms kernel while a 0.319 ms one, five times its floor, waited at the end).
  const auto& launches = match.params.at("launches");
  std::vector<std::size_t> order(launches.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return launches[a].value("potential_ms", 0.0) > launches[b].value("potential_ms", 0.0);
  });
  std::vector<nlohmann::json> out;
  for (const std::size_t r : order) {
    const std::string prefix = prefix_of(r);
    nlohmann::json own = nlohmann::json::object();  // this launch's settings, unprefixed
    for (const auto& [key, value] : settings.items()) {
      if (key.rfind(prefix, 0) == 0) own[key.substr(prefix.size())] = value;
    }
    for (const auto& next : neighbours_of(Match{"config", launches[r], ""}, own)) {
      nlohmann::json s = settings;
      for (const auto& [key, value] : next.items()) {
        s[prefix + key] = value;
      }
      out.push_back(std::move(s));
    }
  }
  return out;
}

std::string fuse_source(const Match& match, int segment, const nlohmann::json& settings) {
  const auto& launches = match.params.at("launches");
  std::string sources;
  std::set<std::string> defined;
  std::string body;
  std::string device;
  std::map<std::string, std::string> tensors;
  for (std::size_t r = 0; r < launches.size(); ++r) {
    const auto& launch = launches[r];
    if (defined.insert(launch.at("kernel").get<std::string>()).second) {
      sources += launch.at("source").get<std::string>() + "\n\n";
    }
    for (const auto& arg : launch.at("args")) {
      if (device.empty() && arg.contains("root") && arg.at("from") != "internal") {
        device = fmt::format("    _device = {}[\"{}\"].device\n", arg.at("from").get<std::string>(),
                             arg.at("root").get<std::string>());
      }
    }
    const std::string line = launch_text(launch, settings, prefix_of(r), tensors, body);
    body += line;
  }
  // fuse's candidate, or config's over a whole segment (no producer: every kernel relaunched).
  const std::string how =
      match.params.contains("producer")
          ? fmt::format(
                "rewrite proposer (fuse): Inductor's kernels without their\nautotuning "
                "decorators, {} computed inside {} instead of launched, each\nlaunched",
                match.params.at("producer").get<std::string>(),
                fmt::join(match.params.at("consumers").get<std::vector<std::string>>(), " and "))
          : fmt::format(
                "{} proposer: Inductor's kernels of the segment{} without their\n"
                "autotuning decorators, each launched",
                match.recipe, match.recipe == "rewrite" ? " (some rewritten)" : "");
  return fmt::format(
      "\"\"\"Segment {}: {}.\n\nWritten by kernelopt's {} with the settings below.\n\"\"\"\n\n"
      "import torch\nimport triton\n\n"
      "{}\n"
      "def run(inputs, outputs):\n"
      "{}{}",
      segment, match.why, how, sources, device, body);
}

}  // namespace kernelopt::propose
