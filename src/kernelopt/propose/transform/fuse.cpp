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
#include "kernelopt/propose/transform/relaunch.hpp"

namespace kernelopt::propose {

namespace {

namespace py = inductor::detail;

using detail::def_with_pointers;
using detail::function_of;
using detail::indent_of;
using detail::map_identifiers;
using detail::pointer_param;
using detail::pointer_plus;

bool uses(const std::string& line, const std::string& name) {
  bool found = false;
  map_identifiers(line, [&](const std::string& id) {
    found = found || id == name;
    return id;
  });
  return found;
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

}  // namespace

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

}  // namespace kernelopt::propose
