// Canonical forms of the integer and boolean arithmetic of Inductor's index and mask expressions,
// by which the one-pass rewrite (one_pass.cpp) knows two loads for the same: names substituted by
// their definitions, sums and products flattened with their operands sorted, literals folded.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kernelopt::propose::detail {

struct Expr {
  std::string op;  // "" for an atom (a name@version or a literal), else the operator
  std::string atom;
  std::vector<Expr> kids;
};

// The expression as text: an atom as written, an operator's operands joined in brackets.
std::string print(const Expr& e);

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

  std::optional<Expr> parse();

 private:
  void skip();

  // The binary operator at the cursor and its precedence (Python's order), or "".
  std::pair<std::string, int> peek_op();

  std::optional<Expr> binary(int min_prec);

  std::optional<Expr> unary();

  const std::string& text_;
  const Names& names_;
  std::size_t at_ = 0;
};

}  // namespace kernelopt::propose::detail
