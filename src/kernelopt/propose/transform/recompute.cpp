// The rewrite proposer's third source transformation: recompute instead of reload.
//
// Inductor sometimes realizes a value inside a looped reduction: the first walk of the row
// computes it from the kernel's inputs, stores it to an output pointer and reduces it; the second
// walk loads it back (a batch norm's output, then that output minus its own spatial mean). The
// second walk can compute the value again from the same inputs instead: the statements the first
// walk used for it (all elementwise, all from inputs the kernel never writes) are copied in place
// of the load, and the load's mask and `other` kept with a tl.where. Where nothing else reads the
// buffer (a buffer that lives within the segment, which no other launch names), the first walk's
// store goes too, so the kernel reads its input twice and writes once instead of reading once,
// writing twice and reading back once.
//
// It is left alone unless every part is plain: each walk a top-level `for r0_offset` loop, the
// store and the load at the same address text and mask, every index variable the address or the
// copied statements use defined the same way in both walks, the copied statements' names assigned
// nowhere else in the kernel, and no reduction, store or atomic among them.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/transform/rewrite.hpp"

namespace kernelopt::propose {

namespace py = inductor::detail;

namespace {

struct Stmt {
  std::size_t first = 0;  // its first physical line
  std::size_t count = 1;  // its physical lines
  std::string text;       // joined and trimmed
  int loop = -1;          // index of the top-level r0 loop it is in, -1 outside every loop
  std::vector<std::string> targets;
  std::string rhs;
};

// `tl.store(PTR + (ADDR), VALUE, MASK)` or `tl.load(PTR + (ADDR), MASK, ..., other=O)`: the
// pointer name and the address text; nullopt for another shape.
struct Access {
  std::string pointer;
  std::string address;
  std::vector<std::string> args;  // every argument after the first
};

std::optional<Access> access_of(const std::string& call, std::string_view callee) {
  const auto args = py::call_args(call, callee);
  if (!args || args->size() < 2) return std::nullopt;
  const std::string& first = (*args)[0];
  const auto plus = first.find(" + (");
  if (plus == std::string::npos || first.back() != ')') return std::nullopt;
  Access a;
  a.pointer = first.substr(0, plus);
  if (!py::is_identifier(a.pointer)) return std::nullopt;
  a.address = first.substr(plus + 4, first.size() - plus - 5);
  a.args.assign(args->begin() + 1, args->end());
  return a;
}

}  // namespace

std::optional<Recomputed> recompute_reloads_source(const std::string& source,
                                                   const std::set<std::string>& droppable) {
  std::vector<std::string> lines;
  for (const auto& line : py::split_lines(source)) {
    lines.emplace_back(line);
  }
  const auto def = std::find_if(lines.begin(), lines.end(),
                                [](const std::string& l) { return l.rfind("def ", 0) == 0; });
  if (def == lines.end()) return std::nullopt;
  // Statements, joined over their physical lines, each with the loop it is in.
  std::vector<Stmt> stmts;
  int loops = 0;
  int loop = -1;
  for (std::size_t i = static_cast<std::size_t>(def - lines.begin()) + 1; i < lines.size(); ++i) {
    const std::string t(py::trim(lines[i]));
    if (t.empty()) continue;
    const std::size_t ind = py::indentation(lines[i]);
    if (ind <= 4) loop = -1;
    if (t.rfind("for ", 0) == 0 || t.rfind("while ", 0) == 0) {
      if (ind != 4 || t.rfind("for r0_offset in ", 0) != 0) return std::nullopt;
      loop = loops++;
      continue;
    }
    if (ind > 4 && loop < 0) return std::nullopt;  // a block the transformation does not know
    if (ind > 8) return std::nullopt;
    Stmt s;
    s.first = i;
    s.loop = loop;
    s.text = py::joined_statement(lines, i);
    s.count = i - s.first + 1;
    s.targets = py::assigned_names(s.text, &s.rhs);
    if (s.text.find("atomic") != std::string::npos) return std::nullopt;
    stmts.push_back(std::move(s));
  }
  if (loops < 2) return std::nullopt;
  // Where each name is assigned.
  std::map<std::string, std::vector<std::size_t>> assigned;
  for (std::size_t k = 0; k < stmts.size(); ++k) {
    for (const auto& name : stmts[k].targets) {
      assigned[name].push_back(k);
    }
  }
  std::set<std::string> stored_pointers;
  for (const auto& s : stmts) {
    if (const auto st = access_of(s.text, "tl.store")) stored_pointers.insert(st->pointer);
  }
  // The defining statement of `name` as seen from statement k within loop `in_loop`: the last
  // assignment before k in that loop.
  const auto definition_in_loop = [&](const std::string& name, std::size_t k,
                                      int in_loop) -> std::optional<std::size_t> {
    const auto it = assigned.find(name);
    if (it == assigned.end()) return std::nullopt;
    std::optional<std::size_t> found;
    for (const std::size_t j : it->second) {
      if (j < k && stmts[j].loop == in_loop) found = j;
    }
    return found;
  };

  Recomputed out;
  std::vector<std::pair<std::size_t, std::string>> replacements;  // statement -> new lines
  std::set<std::size_t> dropped_stores;
  for (std::size_t k = 0; k < stmts.size(); ++k) {
    const Stmt& load_stmt = stmts[k];
    if (load_stmt.loop <= 0 || load_stmt.targets.size() != 1) continue;
    const auto load = access_of(load_stmt.rhs, "tl.load");
    if (!load || load_stmt.rhs.rfind("tl.load(", 0) != 0 ||
        py::find_closing(load_stmt.rhs, 7) + 1 != load_stmt.rhs.size()) {
      continue;
    }
    // The store to that pointer in an earlier walk, at the same address.
    std::optional<std::size_t> store;
    for (std::size_t j = 0; j < k; ++j) {
      if (stmts[j].loop < 0 || stmts[j].loop >= load_stmt.loop) continue;
      const auto st = access_of(stmts[j].text, "tl.store");
      if (st && st->pointer == load->pointer) store = j;
    }
    if (!store) continue;
    const auto st = *access_of(stmts[*store].text, "tl.store");
    if (st.address != load->address || st.args.size() != 2) continue;
    const std::string& value = st.args[0];
    const std::string& store_mask = st.args[1];
    std::string load_mask;
    std::string other = "0.0";
    bool unknown_keyword = false;
    for (std::size_t a = 0; a < load->args.size(); ++a) {
      const std::string& arg = load->args[a];
      if (arg.rfind("other=", 0) == 0) {
        other = arg.substr(6);
      } else if (arg.rfind("eviction_policy=", 0) == 0) {
      } else if (a == 0 && arg.find('=') == std::string::npos) {
        load_mask = arg;
      } else {
        unknown_keyword = true;
      }
    }
    if (unknown_keyword || load_mask != store_mask || !py::is_identifier(value)) continue;
    // The statements of the earlier walk that the value and the address need, in order.
    const int walk = stmts[*store].loop;
    std::set<std::size_t> closure;
    std::vector<std::string> pending = {value};
    for (const auto& name : py::identifiers(st.address + " " + store_mask)) {
      pending.push_back(name);
    }
    bool plain = true;
    std::set<std::string> seen;
    while (!pending.empty() && plain) {
      const std::string name = pending.back();
      pending.pop_back();
      if (!seen.insert(name).second) continue;
      const auto at = definition_in_loop(name, *store, walk);
      if (!at) {
        // Defined outside the walk: it must mean the same at the load (assigned before the
        // walk and never again).
        const auto it = assigned.find(name);
        if (it != assigned.end()) {
          for (const std::size_t j : it->second) {
            if (stmts[j].loop >= 0 || j > *store) plain = false;
          }
        }
        continue;
      }
      const Stmt& d = stmts[*at];
      if (d.targets.size() != 1 || d.rhs.find("tl.store") != std::string::npos ||
          d.rhs.find("tl.sum") != std::string::npos || d.rhs.find("welford") != std::string::npos ||
          d.rhs.find("reduce") != std::string::npos || d.rhs.find("_next") != std::string::npos) {
        plain = false;
        break;
      }
      if (const auto l = access_of(d.rhs, "tl.load");
          l && (l->pointer.rfind("in_ptr", 0) != 0 || stored_pointers.count(l->pointer) != 0)) {
        plain = false;  // a load of something this kernel writes
        break;
      }
      closure.insert(*at);
      for (const auto& used : py::identifiers(d.rhs)) {
        pending.push_back(used);
      }
    }
    if (!plain || closure.empty()) continue;
    // Each copied name: assigned only in the earlier walk, or in the later one by the same
    // statement (an index variable both walks define alike).
    for (const std::size_t c : closure) {
      for (const std::size_t j : assigned.at(stmts[c].targets.front())) {
        if (j == c) continue;
        if (stmts[j].loop != load_stmt.loop || stmts[j].text != stmts[c].text) plain = false;
      }
    }
    if (!plain) continue;
    const std::string pad(py::indentation(lines[load_stmt.first]), ' ');
    std::string text;
    for (const std::size_t c : closure) {
      text += pad + stmts[c].text + "\n";
    }
    text += load_mask.empty() || load_mask == "None"
                ? fmt::format("{}{} = {}", pad, load_stmt.targets.front(), value)
                : fmt::format("{}{} = tl.where({}, {}, {})", pad, load_stmt.targets.front(),
                              load_mask, value, other);
    replacements.emplace_back(k, text);
    ++out.count;
    // The store goes when nothing else reads the buffer: no other load of the pointer remains.
    if (droppable.count(load->pointer) != 0) {
      bool other_load = false;
      for (std::size_t j = 0; j < stmts.size(); ++j) {
        if (j == k) continue;
        const auto l = access_of(stmts[j].rhs, "tl.load");
        if (l && l->pointer == load->pointer) other_load = true;
      }
      if (!other_load) {
        dropped_stores.insert(*store);
        out.dropped.push_back(load->pointer);
      }
    }
  }
  if (out.count == 0) return std::nullopt;
  for (const auto& [k, text] : replacements) {
    lines[stmts[k].first] = text;
    for (std::size_t c = 1; c < stmts[k].count; ++c) {
      lines[stmts[k].first + c].clear();
    }
  }
  for (const std::size_t k : dropped_stores) {
    lines[stmts[k].first] = std::string(py::indentation(lines[stmts[k].first]), ' ') + "pass";
    for (std::size_t c = 1; c < stmts[k].count; ++c) {
      lines[stmts[k].first + c].clear();
    }
  }
  for (const auto& line : lines) {
    if (!line.empty()) out.source += line + "\n";
  }
  return out;
}

}  // namespace kernelopt::propose
