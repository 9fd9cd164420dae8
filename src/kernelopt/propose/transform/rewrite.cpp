// The rewrite proposer: a source transformation of Inductor's own kernel. Three: one
// pass instead of two when a row fits on chip (below), shifted sums instead of a Welford update
// (shifted_sums_source, further down), and fuse (fuse.cpp).
//
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
#include "kernelopt/propose/transform/rewrite.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/transform/buffer_names.hpp"
#include "kernelopt/propose/transform/config.hpp"

namespace kernelopt::propose {

namespace py = inductor::detail;

namespace {

// ---- expressions: canonical forms of Python's integer and boolean arithmetic ----

struct Expr {
  std::string op;  // "" for an atom (a name@version or a literal), else the operator
  std::string atom;
  std::vector<Expr> kids;
};

std::string print(const Expr& e) {
  if (e.op.empty()) return e.atom;
  if (e.op == "neg") return "(-" + print(e.kids.front()) + ")";
  std::string out = "(";
  for (std::size_t i = 0; i < e.kids.size(); ++i) {
    if (i != 0) out += e.op;
    out += print(e.kids[i]);
  }
  return out + ")";
}

std::optional<long long> integer_of(const Expr& e) {
  if (!e.op.empty() || e.atom.empty()) return std::nullopt;
  const std::size_t start = e.atom[0] == '-' ? 1 : 0;
  if (start == e.atom.size()) return std::nullopt;
  for (std::size_t i = start; i < e.atom.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(e.atom[i])) == 0) return std::nullopt;
  }
  return std::stoll(e.atom);
}

Expr literal(long long v) {
  return Expr{"", std::to_string(v), {}};
}

// A commutative, associative operator's node: nested ones flattened, integer literals folded
// (the identity dropped), operands sorted by their printed form.
Expr commutative(const std::string& op, std::vector<Expr> operands) {
  std::vector<Expr> flat;
  const bool foldable = op == "+" || op == "*";
  long long folded = op == "*" ? 1 : 0;
  bool any_literal = false;
  for (auto& e : operands) {
    std::vector<Expr> parts;
    if (e.op == op) {
      parts = std::move(e.kids);
    } else {
      parts.push_back(std::move(e));
    }
    for (auto& p : parts) {
      if (const auto v = integer_of(p); v && foldable) {
        folded = op == "*" ? folded * *v : folded + *v;
        any_literal = true;
      } else {
        flat.push_back(std::move(p));
      }
    }
  }
  if (any_literal && folded != (op == "*" ? 1 : 0)) flat.push_back(literal(folded));
  if (flat.empty()) return literal(op == "*" ? 1 : 0);
  if (flat.size() == 1) return flat.front();
  std::sort(flat.begin(), flat.end(),
            [](const Expr& a, const Expr& b) { return print(a) < print(b); });
  return Expr{op, "", std::move(flat)};
}

Expr negate(Expr e) {
  if (const auto v = integer_of(e)) return literal(-*v);
  if (e.op == "neg") return e.kids.front();
  return Expr{"neg", "", {std::move(e)}};
}

struct Names {
  std::map<std::string, Expr> defined;     // name -> canonical definition
  std::map<std::string, int> assignments;  // name -> how many times it was assigned

  Expr atom(const std::string& name) const {
    if (const auto it = defined.find(name); it != defined.end()) return it->second;
    const auto n = assignments.find(name);
    return Expr{"", name + "@" + std::to_string(n == assignments.end() ? 0 : n->second), {}};
  }
};

// A Pratt parser over the operators Inductor's index and mask expressions use. Anything else (a
// call, a subscript, a string) fails the parse: such a value is opaque.
class Parser {
 public:
  Parser(const std::string& text, const Names& names) : text_(text), names_(names) {}

  std::optional<Expr> parse() {
    auto e = binary(0);
    skip();
    if (!e || at_ != text_.size()) return std::nullopt;
    return e;
  }

 private:
  void skip() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_])) != 0) {
      ++at_;
    }
  }

  // The binary operator at the cursor and its precedence (Python's order), or "".
  std::pair<std::string, int> peek_op() {
    skip();
    static const std::vector<std::pair<std::string, int>> ops = {
        {"//", 6}, {"<=", 1}, {">=", 1}, {"==", 1}, {"!=", 1}, {"<", 1}, {">", 1}, {"|", 2},
        {"^", 3},  {"&", 4},  {"+", 5},  {"-", 5},  {"*", 6},  {"%", 6}, {"/", 6}};
    for (const auto& [op, prec] : ops) {
      if (text_.compare(at_, op.size(), op) == 0) return {op, prec};
    }
    return {"", -1};
  }

  std::optional<Expr> binary(int min_prec) {
    auto left = unary();
    while (left) {
      const auto [op, prec] = peek_op();
      if (op.empty() || prec < min_prec) break;
      at_ += op.size();
      auto right = binary(prec + 1);
      if (!right) return std::nullopt;
      if (op == "+" || op == "*" || op == "&" || op == "|") {
        left = commutative(op, {std::move(*left), std::move(*right)});
      } else if (op == "-") {
        left = commutative("+", {std::move(*left), negate(std::move(*right))});
      } else {
        left = Expr{op, "", {std::move(*left), std::move(*right)}};
      }
    }
    return left;
  }

  std::optional<Expr> unary() {
    skip();
    if (at_ >= text_.size()) return std::nullopt;
    const char c = text_[at_];
    if (c == '-') {
      ++at_;
      auto e = unary();
      if (!e) return std::nullopt;
      return negate(std::move(*e));
    }
    if (c == '(') {
      ++at_;
      auto e = binary(0);
      skip();
      if (!e || at_ >= text_.size() || text_[at_] != ')') return std::nullopt;
      ++at_;
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      const std::size_t start = at_;
      while (at_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[at_])) != 0 || text_[at_] == '.')) {
        ++at_;
      }
      std::string number = text_.substr(start, at_ - start);
      if (const auto v = integer_of(Expr{"", number, {}})) return literal(*v);
      return Expr{"", number, {}};
    }
    if (std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_') {
      const std::size_t start = at_;
      while (at_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[at_])) != 0 || text_[at_] == '_')) {
        ++at_;
      }
      const std::string name = text_.substr(start, at_ - start);
      skip();
      // A call, attribute or subscript: not arithmetic this parser knows.
      if (at_ < text_.size() && (text_[at_] == '(' || text_[at_] == '.' || text_[at_] == '[')) {
        return std::nullopt;
      }
      if (name == "None" || name == "True" || name == "False") return Expr{"", name, {}};
      return names_.atom(name);
    }
    return std::nullopt;
  }

  const std::string& text_;
  const Names& names_;
  std::size_t at_ = 0;
};

// ---- statements ----

using inductor::detail::assigned_names;
using inductor::detail::find_closing;
using inductor::detail::indentation;
using inductor::detail::split_top_level;

std::string trim(std::string_view text) {
  return std::string(inductor::detail::trim(text));
}

// A logical line: its physical lines joined (an open bracket continues a statement).
struct Statement {
  std::size_t first = 0;  // index of its first physical line
  std::size_t count = 1;
  std::size_t indent = 0;
  std::string text;
  bool in_loop = false;
};

// `A, B = CALL(` ... `)` joined into one statement starting at line i, or "" when line i does
// not open such a call; `last` is set to the call's closing line.
std::string joined_call(const std::vector<std::string>& lines, std::size_t i, std::size_t& last) {
  std::string text = trim(lines[i]);
  last = i;
  int depth = 0;
  for (std::size_t j = i;; ++j) {
    if (j != i) text += " " + trim(lines[j]);
    depth += py::bracket_balance(lines[j]);
    last = j;
    if (depth <= 0 || j + 1 >= lines.size()) break;
  }
  return depth == 0 ? text : "";
}

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

namespace {

std::optional<Match> match_one_pass(const Match& config) {
  if (config.params.value("kind", "") != "reduction") return std::nullopt;
  const auto& numels = config.params.at("numels");
  if (!numels.contains("r0_numel")) return std::nullopt;
  const auto r0 = numels.at("r0_numel").get<std::int64_t>();
  if (r0 > kOnePassMaxRow) return std::nullopt;
  const std::int64_t block = next_power_of_two(r0);
  // A row mask Inductor dropped (every R0_BLOCK divides r0_numel) must stay droppable.
  if (config.params.at("divides").contains("R0_BLOCK") && r0 % block != 0) return std::nullopt;
  const auto rewritten = one_pass_source(config.params.at("source").get<std::string>());
  if (!rewritten) return std::nullopt;
  Match m = config;
  m.recipe = "rewrite";
  m.params["source"] = rewritten->source;
  m.params["fixed"] = {{"R0_BLOCK", block}};
  m.params["rewrite"] = {{"transform", "one_pass"},
                         {"loops", rewritten->loops},
                         {"reused_loads", rewritten->reused},
                         {"softmax_in_registers", rewritten->softmax}};
  m.why = fmt::format(
      "Inductor's looped reduction {} made one pass: rows of {} fit one program, {} loops "
      "flattened, {} repeated load(s) reuse the first{}",
      m.params.at("kernel").get<std::string>(), r0, rewritten->loops, rewritten->reused,
      rewritten->softmax == 0
          ? ""
          : fmt::format(", {} online softmax(es) a max then a sum of exponentials over the row",
                        rewritten->softmax));
  return m;
}

// Whether `name`, as last assigned before line `before`, is zero everywhere: `tl.full(S, 0, T)` or
// `tl.full(S, 0.0, T)`, a `tl.broadcast_to` of a zero, or a `tl.where` of two zeros (Inductor's
// M2 of a single element, padded).
bool zero_valued(const std::vector<std::string>& lines,
                 std::size_t before,
                 const std::string& name,
                 int depth = 0) {
  if (depth > 8) return false;
  for (std::size_t j = before; j-- > 0;) {
    std::string rhs;
    const auto lhs = assigned_names(trim(lines[j]), &rhs);
    if (lhs.size() != 1 || lhs[0] != name) continue;
    if (const auto full = py::call_args(rhs, "tl.full")) {
      return full->size() == 3 && ((*full)[1] == "0" || (*full)[1] == "0.0");
    }
    if (const auto b = py::call_args(rhs, "tl.broadcast_to")) {
      return b->size() == 2 && identifier((*b)[0]) && zero_valued(lines, j, (*b)[0], depth + 1);
    }
    if (const auto w = py::call_args(rhs, "tl.where")) {
      return w->size() == 3 && identifier((*w)[1]) && identifier((*w)[2]) &&
             zero_valued(lines, j, (*w)[1], depth + 1) && zero_valued(lines, j, (*w)[2], depth + 1);
    }
    return false;
  }
  return false;
}

}  // namespace

std::optional<ShiftedSums> shifted_sums_source(const std::string& source) {
  std::vector<std::string> lines;
  for (const auto& line : py::split_lines(source)) {
    lines.emplace_back(line);
  }
  ShiftedSums out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const bool reduce = lines[i].find("triton_helpers.welford_reduce(") != std::string::npos;
    const bool combine_call = lines[i].find("triton_helpers.welford_combine(") != std::string::npos;
    if (!reduce && !combine_call) continue;
    std::size_t last = i;
    const std::string call = joined_call(lines, i, last);
    std::string rhs;
    const auto lhs = assigned_names(call, &rhs);
    // `N_mean_next, N_m2_next, N_weight_next = welford_reduce(V, N_mean, N_m2, N_weight, roffset
    // == 0)`, or `= welford_combine(N_mean, N_m2, N_weight, V, M, W)` with M zero (each element a
    // value of weight W: Inductor's form for a split reduction with padding, W 1 or 0); then the
    // three masked updates, one mask.
    std::vector<std::string> acc;  // N_mean, N_m2, N_weight as the call names them
    std::string value;
    std::string weight;  // W; empty for welford_reduce (weight 1)
    if (reduce) {
      const auto args = py::call_args(rhs, "triton_helpers.welford_reduce");
      if (!args || args->size() != 5 || (*args)[4] != "roffset == 0") return std::nullopt;
      acc = {(*args)[1], (*args)[2], (*args)[3]};
      value = (*args)[0];
    } else {
      const auto args = py::call_args(rhs, "triton_helpers.welford_combine");
      if (!args || args->size() != 6) return std::nullopt;
      // A combine of partial statistics (M not zero: a split reduction's second stage) stays.
      if (!identifier((*args)[4]) || !zero_valued(lines, i, (*args)[4])) continue;
      acc = {(*args)[0], (*args)[1], (*args)[2]};
      value = (*args)[3];
      weight = (*args)[5];
      if (!identifier(weight)) return std::nullopt;
    }
    if (lhs.size() != 3 || acc[0].size() <= 5) return std::nullopt;
    const std::string name = acc[0].substr(0, acc[0].size() - 5);
    if (acc[0] != name + "_mean" || acc[1] != name + "_m2" || acc[2] != name + "_weight" ||
        lhs[0] != name + "_mean_next" || lhs[1] != name + "_m2_next" ||
        lhs[2] != name + "_weight_next" || !identifier(value) || last + 3 >= lines.size()) {
      return std::nullopt;
    }
    std::string mask;
    for (std::size_t k = 0; k < 3; ++k) {
      const std::string part = std::array{"_mean", "_m2", "_weight"}[k];
      std::string where_rhs;
      const auto target = assigned_names(trim(lines[last + 1 + k]), &where_rhs);
      const auto where = py::call_args(where_rhs, "tl.where");
      if (target.size() != 1 || target[0] != name + part || !where || where->size() != 3 ||
          (*where)[1] != name + part + "_next" || (*where)[2] != name + part ||
          (!mask.empty() && (*where)[0] != mask)) {
        return std::nullopt;
      }
      mask = (*where)[0];
    }
    // The accumulators' zero initialisations (before the loop) and the final welford (after it).
    std::size_t init = lines.size();
    std::size_t final_line = lines.size();
    const std::string zero_weight = fmt::format("{}_weight = tl.zeros(", name);
    const std::string combine =
        fmt::format("triton_helpers.welford({0}_mean, {0}_m2, {0}_weight", name);
    for (std::size_t j = 0; j < lines.size(); ++j) {
      const std::string t = trim(lines[j]);
      if (j < i && t.rfind(zero_weight, 0) == 0) init = j;
      if (j > last && final_line == lines.size() && t.find(combine) != std::string::npos) {
        final_line = j;
      }
    }
    if (init == lines.size() || final_line == lines.size()) return std::nullopt;
    const std::string pad(indentation(lines[i]), ' ');
    const std::string final_pad(indentation(lines[final_line]), ' ');
    const std::string zeros = trim(lines[init]).substr((name + "_weight = ").size());
    const std::string init_pad(indentation(lines[init]), ' ');
    // The new statements, in the names of this reduction: {n} its name, {m} the mask, {v} the
    // value, {w} the element weight.
    const auto text = [&](const char* pattern, const std::string& indent) {
      return indent + fmt::format(fmt::runtime(pattern), fmt::arg("n", name), fmt::arg("m", mask),
                                  fmt::arg("v", value), fmt::arg("w", weight));
    };
    std::vector<std::string> loop;
    if (weight.empty()) {
      for (const char* pattern : {"{n}_shift = tl.where(({n}_weight == 0) & ({m}), {v}, {n}_shift)",
                                  "{n}_dx = tl.where({m}, {v} - {n}_shift, 0.0)",
                                  "{n}_sum = {n}_sum + {n}_dx", "{n}_sq = {n}_sq + {n}_dx * {n}_dx",
                                  "{n}_weight = tl.where({m}, {n}_weight + 1, {n}_weight)"}) {
        loop.push_back(text(pattern, pad));
      }
    } else {  // each element counts with its weight W (0 for padding): weighted sums
      for (const char* pattern :
           {"{n}_w = tl.where({m}, {w}, 0.0)",
            "{n}_shift = tl.where(({n}_weight == 0) & ({n}_w > 0), {v}, {n}_shift)",
            "{n}_dx = tl.where({n}_w > 0, {v} - {n}_shift, 0.0)",
            "{n}_sum = {n}_sum + {n}_w * {n}_dx", "{n}_sq = {n}_sq + {n}_w * {n}_dx * {n}_dx",
            "{n}_weight = {n}_weight + {n}_w"}) {
        loop.push_back(text(pattern, pad));
      }
    }
    std::vector<std::string> after;
    for (const char* pattern : {"{n}_n = tl.where({n}_weight == 0, 1.0, {n}_weight)",
                                "{n}_mean = {n}_shift + {n}_sum / {n}_n",
                                "{n}_m2 = tl.maximum({n}_sq - {n}_sum * {n}_sum / {n}_n, 0.0)"}) {
      after.push_back(text(pattern, final_pad));
    }
    std::vector<std::string> zero_lines;
    for (const char* part : {"_shift", "_sum", "_sq"}) {
      zero_lines.push_back(fmt::format("{}{}{} = {}", init_pad, name, part, zeros));
    }
    // Edit from the bottom up so the earlier indices stay valid.
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(final_line), after.begin(),
                 after.end());
    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i),
                lines.begin() + static_cast<std::ptrdiff_t>(last + 4));
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), loop.begin(), loop.end());
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(init + 1), zero_lines.begin(),
                 zero_lines.end());
    ++out.count;
    i += loop.size() + zero_lines.size();
  }
  if (out.count == 0) return std::nullopt;
  for (const auto& line : lines) {
    out.source += line + "\n";
  }
  return out;
}

std::optional<Match> match_rewrite(const inductor::OutputCode& code,
                                   const analysis::DispatchMap& map,
                                   const analysis::Segment& segment) {
  auto config = match_config(code, map, segment);
  if (!config) return std::nullopt;
  if (auto one = match_one_pass(*config)) return one;
  // In every looped reduction of the segment: one pass where its row fits on chip (a kernel of a
  // multi-launch segment, its settings then the one-pass ones), else shifted sums where it has a
  // Welford loop.
  Match m = std::move(*config);
  int welford = 0;
  int one_pass = 0;
  int recomputed = 0;
  int mish = 0;
  std::vector<std::string> what;
  // Pointer parameters of a launch bound to a buffer that lives within the segment and that no
  // other launch names: a store to them nothing else reads.
  const auto droppable = [&](const nlohmann::json& launch) {
    std::set<std::string> out;
    if (!m.params.contains("launches")) return out;
    for (const auto& arg : launch.at("args")) {
      if (arg.value("from", "") != "internal") continue;
      int named = 0;
      for (const auto& other : m.params.at("launches")) {
        for (const auto& a : other.at("args")) {
          named += a.contains("root") && a.at("root") == arg.at("root") ? 1 : 0;
        }
      }
      if (named == 1) out.insert(arg.at("param").get<std::string>());
    }
    return out;
  };
  auto rewrite_launch = [&](nlohmann::json& launch, bool alone) {
    const std::string kernel = launch.value("kernel", "");
    // Mish with one exponential, in any kernel but a template (after the other rewrites).
    const auto cheap = [&]() {
      if (const int count = cheaper_math_launch(launch); count > 0) {
        mish += count;
        what.push_back(fmt::format(
            "{}: {} Mish(es) with one exponential instead of exp, log1p and tanh", kernel, count));
      }
    };
    if (launch.value("kind", "") != "reduction") {
      cheap();
      return;
    }
    if (!alone) {
      if (auto one = match_one_pass(Match{"config", launch, ""})) {
        nlohmann::json settings = rewrite_settings(*one);
        launch = std::move(one->params);
        launch["settings"] = std::move(settings);
        ++one_pass;
        const int softmax = launch.at("rewrite").value("softmax_in_registers", 0);
        what.push_back(fmt::format(
            "{} one pass (rows of {} fit one program{})", kernel,
            launch.at("fixed").at("R0_BLOCK").get<std::int64_t>(),
            softmax == 0 ? "" : "; its online softmax a max then a sum of exponentials"));
        cheap();
        return;
      }
    }
    if (auto again =
            recompute_reloads_source(launch.at("source").get<std::string>(), droppable(launch))) {
      launch["source"] = again->source;
      recomputed += again->count;
      what.push_back(fmt::format(
          "{}: {} value(s) its first walk stores computed again by the second instead of loaded "
          "back{}",
          kernel, again->count,
          again->dropped.empty() ? ""
                                 : fmt::format(" (stores to {} dropped: nothing else reads them)",
                                               fmt::join(again->dropped, ", "))));
    }
    if (auto sums = shifted_sums_source(launch.at("source").get<std::string>())) {
      launch["source"] = sums->source;
      welford += sums->count;
      what.push_back(
          fmt::format("{}: {} Welford reduction(s) made shifted sums", kernel, sums->count));
    }
    cheap();
  };
  if (m.params.contains("launches")) {
    for (auto& launch : m.params.at("launches")) {
      rewrite_launch(launch, false);
    }
  } else {
    rewrite_launch(m.params, true);
  }
  if (welford + one_pass + recomputed + mish == 0) return std::nullopt;
  m.recipe = "rewrite";
  const bool only_sums = one_pass + recomputed + mish == 0;
  m.params["rewrite"] = {{"transform", only_sums                              ? "shifted_sums"
                                       : welford + one_pass + recomputed == 0 ? "cheap_math"
                                                                              : "segment"},
                         {"welford", welford},
                         {"one_pass", one_pass},
                         {"recomputed", recomputed},
                         {"mish", mish}};
  m.why = only_sums ? fmt::format(
                          "{} (no division per element; the mean and M2 from the sums after "
                          "the loop)",
                          fmt::join(what, "; "))
          : m.params.contains("launches")
              ? fmt::format("{}; the segment's other kernels relaunched", fmt::join(what, "; "))
              : fmt::format("{}", fmt::join(what, "; "));
  return m;
}

namespace {

// Whether a load or store of the kernel walks its row with a stride: an address with an integer
// above 1 times a row index (Inductor's `r0_1`, `r0_2`, ...), as in `out_ptr0 + (x0 + 16641*r0_2)`
// (a softmax over the channels of an NCHW tensor) or `in_ptr0 + (x2 + 128*r0_1)` (rows over the
// pixels of a channels-last one). Such an access is coalesced only across the program's rows.
bool row_strided(const std::string& source) {
  for (const char* call : {"tl.load(", "tl.store("}) {
    for (std::size_t at = source.find(call); at != std::string::npos;
         at = source.find(call, at + 1)) {
      const std::size_t end = source.find('\n', at);
      const std::string line = source.substr(at, end == std::string::npos ? end : end - at);
      for (std::size_t star = line.find("*r0_"); star != std::string::npos;
           star = line.find("*r0_", star + 1)) {
        std::size_t begin = star;
        while (begin > 0 && std::isdigit(static_cast<unsigned char>(line[begin - 1])) != 0) {
          --begin;
        }
        if (begin == star) continue;
        const std::string factor = line.substr(begin, star - begin);
        const char before = begin == 0 ? ' ' : line[begin - 1];
        if (std::isalnum(static_cast<unsigned char>(before)) != 0 || before == '_') continue;
        if (factor.size() > 1 || factor[0] > '1') return true;
      }
    }
  }
  return false;
}

}  // namespace

std::vector<nlohmann::json> rewrite_settings(const Match& match) {
  if (match.params.at("rewrite").value("transform", "") != "one_pass") {
    // Shifted sums: Inductor's kernel's own launch, tuned as config tunes it; a segment: each
    // launch its own settings (a one-pass kernel's are its one-pass ones, in "settings").
    return config_settings(match);
  }
  const std::int64_t row = match.params.at("fixed").at("R0_BLOCK").get<std::int64_t>();
  // About 16 row elements per thread, half and twice that many warps; short rows also several per
  // program.
  const auto warps_for = [](std::int64_t elements) {
    return std::clamp<std::int64_t>(elements / 512, 1, 32);
  };
  std::vector<nlohmann::json> out;
  const auto add = [&](std::int64_t rows, std::int64_t warps) {
    nlohmann::json s = {
        {"XBLOCK", rows}, {"num_warps", std::clamp<std::int64_t>(warps, 1, 32)}, {"num_stages", 1}};
    if (config_fits(match, s) && std::find(out.begin(), out.end(), s) == out.end()) {
      out.push_back(std::move(s));
    }
  };
  // 32 elements a thread in 32 warps: the most rows a program holds.
  constexpr std::int64_t kMostElements = std::int64_t{32} * 32 * 32;
  const std::int64_t most_rows = kMostElements / row;
  if (most_rows >= 16 && row_strided(match.params.at("source").get<std::string>())) {
    // A strided row is read or written 128 bytes at a time only when 32 rows share a program:
    // those first (16 to 64 rows, 16 or 32 elements a thread).
    for (const std::int64_t want : {32, 64, 16}) {
      const std::int64_t rows = std::min(want, most_rows);
      const std::int64_t warps = warps_for(rows * row);
      add(rows, warps);
      if (rows * row * 2 <= kMostElements / 32 * warps) add(rows, warps / 2);
    }
  }
  add(1, warps_for(row));
  add(1, warps_for(row) / 2);
  add(1, warps_for(row) * 2);
  const std::int64_t rows = std::max<std::int64_t>(1, 4096 / row);
  add(rows, warps_for(rows * row));
  return out;
}

}  // namespace kernelopt::propose
