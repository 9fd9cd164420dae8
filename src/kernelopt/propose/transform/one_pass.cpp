// One pass: Inductor writes a reduction whose row is longer than its persistent threshold as a
// looped kernel; a norm or softmax then walks the row twice (once for the statistics, once for
// the output) and loads it twice. When the whole row fits one program's registers, the loops run
// once each at R0_BLOCK = next power of two >= r0_numel: the rewrite flattens them into
// straight-line code and replaces every load the second walk repeats by the value the first one
// loaded, so the row is read from memory once.
//
// Which loads are "the same" is decided on canonical forms of their address and mask: the
// kernel's index variables (x0 = xindex, x2 = (xindex % 128), r0_1 = r0_index, ...) are
// substituted by their definitions, sums and products flattened with their operands sorted and
// literals folded. A name assigned from anything this does not parse is an opaque value with a
// version per assignment, so a name reassigned between two loads never makes them equal. A store
// forgets every earlier load (two pointer arguments may be one buffer); an atomic anywhere, or a
// loop the rewrite does not know, and the kernel is left alone.
#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/detail/canonical_expr.hpp"
#include "kernelopt/propose/detail/statement_text.hpp"
#include "kernelopt/propose/transform/buffer_names.hpp"
#include "kernelopt/propose/transform/rewrite.hpp"

namespace kernelopt::propose {

namespace py = inductor::detail;
using detail::joined_call;
using detail::Names;
using detail::Parser;
using detail::print;
using detail::trim;

namespace {

using inductor::detail::assigned_names;
using inductor::detail::find_closing;
using inductor::detail::indentation;
using inductor::detail::split_top_level;

// A logical line: its physical lines joined (an open bracket continues a statement).
struct Statement {
  std::size_t first = 0;  // index of its first physical line
  std::size_t count = 1;
  std::size_t indent = 0;
  std::string text;
  bool in_loop = false;
};

// 3. of the one-pass rewrite: an online softmax over a row the program now holds whole. Inductor's
// looped softmax keeps a running max and sum per lane (`online_softmax_combine`: two exponentials
// per element, to rescale the sum when the max grows) and merges the lanes after the loop
// (`online_softmax_reduce`). With the row in registers, each lane holds one element: the row's max
// is a max over the lanes and its sum one of exp(x - max), the exponential the second walk computes
// again from the same operands (Triton's common-subexpression pass then computes it once). Each of
// the combine's special cases is kept: a lane whose row max is -inf counts 1 (as the combine's
// scale of 1 does), a NaN propagates. Returns how many softmaxes were rewritten; one whose names
// are used anywhere else, or whose value or mask is reassigned before its reduce, stays.
int softmax_in_registers(std::vector<std::string>& lines) {
  int count = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("triton_helpers.online_softmax_combine(") == std::string::npos) continue;
    std::size_t last = i;
    const std::string call = joined_call(lines, i, last);
    std::string rhs;
    const auto lhs = assigned_names(call, &rhs);
    const auto args = py::call_args(rhs, "triton_helpers.online_softmax_combine");
    if (!args || args->size() != 4 || lhs.size() != 2) continue;
    const std::string& max_name = (*args)[0];
    const std::string& sum_name = (*args)[1];
    const std::string& value = (*args)[2];
    const std::string& fast = (*args)[3];
    if (lhs[0] != max_name + "_next" || lhs[1] != sum_name + "_next" || !identifier(value) ||
        (fast != "False" && fast != "True")) {
      continue;
    }
    // The two masked updates, one mask (blank lines between allowed).
    std::vector<std::size_t> updates;
    std::string mask;
    for (std::size_t j = last + 1; j < lines.size() && updates.size() < 2; ++j) {
      if (trim(lines[j]).empty()) continue;
      std::string where_rhs;
      const auto target = assigned_names(trim(lines[j]), &where_rhs);
      const auto where = py::call_args(where_rhs, "tl.where");
      const std::string& name = updates.empty() ? max_name : sum_name;
      if (target.size() != 1 || target[0] != name || !where || where->size() != 3 ||
          (*where)[1] != name + "_next" || (*where)[2] != name ||
          (!mask.empty() && (*where)[0] != mask)) {
        break;
      }
      mask = (*where)[0];
      updates.push_back(j);
    }
    if (updates.size() != 2) continue;
    // The reduce: `X, Y = triton_helpers.online_softmax_reduce(A, B, 1, FAST)`.
    std::size_t reduce = lines.size();
    std::size_t reduce_last = lines.size();
    std::vector<std::string> outputs;
    for (std::size_t j = updates[1] + 1; j < lines.size(); ++j) {
      if (lines[j].find("triton_helpers.online_softmax_reduce(") == std::string::npos) continue;
      std::string reduce_rhs;
      outputs = assigned_names(joined_call(lines, j, reduce_last), &reduce_rhs);
      const auto r = py::call_args(reduce_rhs, "triton_helpers.online_softmax_reduce");
      if (r && r->size() == 4 && (*r)[0] == max_name && (*r)[1] == sum_name && (*r)[2] == "1" &&
          (*r)[3] == fast && outputs.size() == 2) {
        reduce = j;
      }
      break;
    }
    if (reduce == lines.size()) continue;
    // Nothing else may read the accumulators, nothing between the combine and the reduce may
    // assign the value, the mask's names or the outputs.
    std::set<std::string> guarded = {value, outputs[0], outputs[1]};
    for (const auto& name : py::identifiers(mask)) {
      guarded.insert(name);
    }
    const std::set<std::string> accumulators = {max_name, sum_name, lhs[0], lhs[1]};
    bool safe = true;
    for (std::size_t j = 0; j < lines.size() && safe; ++j) {
      const bool ours = (j >= i && j <= last) || j == updates[0] || j == updates[1] ||
                        (j >= reduce && j <= reduce_last);
      if (ours || trim(lines[j]).empty()) continue;
      const auto names = py::identifiers(lines[j]);
      std::string unused;
      const auto targets = assigned_names(trim(lines[j]), &unused);
      for (const auto& name : names) {
        const bool initialised = targets.size() == 1 && targets[0] == name &&
                                 (name == max_name || name == sum_name) && j < i;
        if (accumulators.count(name) != 0 && !initialised) safe = false;
      }
      if (j > last && j < reduce) {
        for (const auto& name : targets) {
          if (guarded.count(name) != 0) safe = false;
        }
      }
    }
    if (!safe) continue;
    const std::string exp = fast == "True" ? "tl_math.exp" : "libdevice.exp";
    const std::string pad(indentation(lines[i]), ' ');
    const std::string& x = outputs[0];
    const std::vector<std::string> replacement = {
        fmt::format("{}{} = triton_helpers.max2(tl.where({}, {}, float('-inf')), 1)", pad, x, mask,
                    value),
        fmt::format("{}{} = tl.sum(tl.where({}, tl.where({}[:, None] == float('-inf'), 1.0, "
                    "{}({} - {}[:, None])), 0.0), 1)",
                    pad, outputs[1], mask, x, exp, value, x)};
    // From the bottom up: the reduce goes, the combine and its updates become the two lines.
    for (std::size_t j = reduce; j <= reduce_last; ++j) {
      lines[j].clear();
    }
    lines[updates[1]].clear();
    lines[updates[0]].clear();
    for (std::size_t j = i; j <= last; ++j) {
      lines[j].clear();
    }
    lines[i] = replacement[0];
    lines[last] = (last == i ? replacement[0] + "\n" : "") + replacement[1];
    ++count;
  }
  return count;
}

}  // namespace

std::optional<OnePass> one_pass_source(const std::string& source) {
  std::vector<std::string> lines;
  for (const std::string_view line : inductor::detail::split_lines(source)) {
    lines.emplace_back(line);
  }
  // 1. Flatten every top-level `for r0_offset in ...:` of the kernel body: the loop line becomes
  // `r0_offset = 0`, its body moves out one level.
  OnePass out;
  std::vector<bool> in_loop(lines.size(), false);
  const auto def = std::find_if(lines.begin(), lines.end(),
                                [](const std::string& l) { return l.rfind("def ", 0) == 0; });
  if (def == lines.end()) return std::nullopt;
  for (std::size_t i = static_cast<std::size_t>(def - lines.begin()) + 1; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    if (t.rfind("for ", 0) == 0 || t.rfind("while ", 0) == 0) {
      if (indentation(lines[i]) != 4 || t.rfind("for r0_offset in ", 0) != 0 || t.back() != ':') {
        return std::nullopt;  // a loop the rewrite does not know
      }
      lines[i] = "    r0_offset = 0";
      ++out.loops;
      for (std::size_t j = i + 1; j < lines.size(); ++j) {
        if (trim(lines[j]).empty()) continue;
        if (indentation(lines[j]) <= 4) break;
        const std::string inner = trim(lines[j]);
        if (inner.rfind("for ", 0) == 0 || inner.rfind("while ", 0) == 0) return std::nullopt;
        lines[j] = lines[j].substr(4);
        in_loop[j] = true;
      }
    }
    if (t.find("atomic") != std::string::npos) return std::nullopt;
  }
  // One walk is worth flattening only for its online softmax (step 3), two or more also for the
  // loads the later walks repeat.
  if (out.loops < 1) return std::nullopt;

  // 2. Walk the statements in order; a top-level load that repeats an earlier one (same canonical
  // address, mask and `other`, no store to its pointer between) takes the earlier value.
  std::vector<Statement> statements;
  for (std::size_t i = static_cast<std::size_t>(def - lines.begin()) + 1; i < lines.size(); ++i) {
    if (trim(lines[i]).empty()) continue;
    Statement s;
    s.first = i;
    s.indent = indentation(lines[i]);
    s.in_loop = in_loop[i];
    s.text = inductor::detail::joined_statement(lines, i);
    s.count = i - s.first + 1;
    statements.push_back(std::move(s));
  }
  Names names;
  std::map<std::string, std::string> loads;  // canonical key -> the variable that holds it
  const auto reassigned = [&](const std::string& name) {
    names.defined.erase(name);
    ++names.assignments[name];
    for (auto it = loads.begin(); it != loads.end();) {
      it = it->second == name ? loads.erase(it) : std::next(it);
    }
  };
  for (const Statement& s : statements) {
    if (s.text.find("store(") != std::string::npos) {
      // Any store forgets every earlier load: two pointer arguments may be one buffer.
      loads.clear();
      continue;
    }
    std::string rhs;
    const auto targets = assigned_names(s.text, &rhs);
    if (targets.empty()) {
      // Not a plain assignment (augmented, a call statement, control flow): names it may bind
      // become unknown.
      if (const auto eq = s.text.find('='); eq != std::string::npos) {
        for (const auto& name : inductor::detail::identifiers(s.text.substr(0, eq))) {
          reassigned(name);
        }
      }
      continue;
    }
    const bool top = s.indent == 4;
    if (targets.size() == 1 && top && rhs.rfind("tl.load(", 0) == 0 &&
        find_closing(rhs, 7) + 1 == rhs.size()) {  // a load alone, not tl.load(...).to(...)
      const auto args = split_top_level(rhs.substr(8, rhs.size() - 9));
      std::string address;
      std::string mask = "None";
      std::string other = "None";
      bool simple = !args.empty();
      for (std::size_t k = 0; k < args.size(); ++k) {
        const std::string& a = args[k];
        const bool keyword = a.find('=') != std::string::npos && a.find("==") == std::string::npos;
        if (a.rfind("mask=", 0) == 0) {
          mask = a.substr(5);
        } else if (a.rfind("other=", 0) == 0) {
          other = a.substr(6);
        } else if (a.rfind("eviction_policy=", 0) == 0) {
          // how long the cache keeps the line: not what is loaded
        } else if (!keyword && k == 0) {
          address = a;
        } else if (!keyword && k == 1) {
          mask = a;
        } else if (!keyword && k == 2) {
          other = a;
        } else {
          simple = false;  // a keyword this rewrite does not know (cache_modifier, volatile)
        }
      }
      const auto canonical_address = Parser(address, names).parse();
      const auto canonical_mask = Parser(mask, names).parse();
      const std::string& name = targets.front();
      if (simple && canonical_address && canonical_mask) {
        const std::string key =
            fmt::format("{} | {} | {}", print(*canonical_address), print(*canonical_mask), other);
        if (const auto it = loads.find(key); it != loads.end() && it->second != name) {
          const std::string earlier = it->second;
          reassigned(name);
          lines[s.first] = fmt::format("{}{} = {}", std::string(s.indent, ' '), name, earlier);
          for (std::size_t k = 1; k < s.count; ++k) {
            lines[s.first + k].clear();
          }
          if (s.in_loop) ++out.reused;
          continue;
        }
        reassigned(name);
        loads[key] = name;
        continue;
      }
      reassigned(name);
      continue;
    }
    if (targets.size() == 1 && top) {
      auto value = Parser(rhs, names).parse();
      reassigned(targets.front());
      if (value) names.defined[targets.front()] = std::move(*value);
      continue;
    }
    for (const auto& name : targets) {
      reassigned(name);
    }
  }
  out.softmax = softmax_in_registers(lines);
  if (out.reused == 0 && out.softmax == 0) return std::nullopt;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i != 0) out.source += "\n";
    out.source += lines[i];
  }
  if (!source.empty() && source.back() == '\n') out.source += "\n";
  return out;
}

}  // namespace kernelopt::propose
