// Canonical index and mask expressions (detail/canonical_expr.hpp): the parser of Inductor's
// integer and boolean operators, and the flattening, sorting and folding of its nodes.
#include "kernelopt/propose/detail/canonical_expr.hpp"

#include <algorithm>
#include <cctype>

namespace kernelopt::propose::detail {

namespace {

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

}  // namespace

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

std::optional<Expr> Parser::parse() {
  auto e = binary(0);
  skip();
  if (!e || at_ != text_.size()) return std::nullopt;
  return e;
}

void Parser::skip() {
  while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_])) != 0) {
    ++at_;
  }
}

std::pair<std::string, int> Parser::peek_op() {
  skip();
  static const std::vector<std::pair<std::string, int>> ops = {
      {"//", 6}, {"<=", 1}, {">=", 1}, {"==", 1}, {"!=", 1}, {"<", 1}, {">", 1}, {"|", 2},
      {"^", 3},  {"&", 4},  {"+", 5},  {"-", 5},  {"*", 6},  {"%", 6}, {"/", 6}};
  for (const auto& [op, prec] : ops) {
    if (text_.compare(at_, op.size(), op) == 0) return {op, prec};
  }
  return {"", -1};
}

std::optional<Expr> Parser::binary(int min_prec) {
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

std::optional<Expr> Parser::unary() {
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

}  // namespace kernelopt::propose::detail
