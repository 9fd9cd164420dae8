// Affine index expressions and their ranges (detail/affine_index.hpp): arithmetic that refuses to
// overflow, division of an affine form where its remainder is bounded, and the index parser.
#include "kernelopt/propose/detail/affine_index.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/inductor/detail/pytext.hpp"

namespace kernelopt::propose::detail {

namespace {

namespace py = inductor::detail;

// a * b and a + b, none where they overflow (an index too large to reason about is kept as is).
std::optional<long long> times(long long a, long long b) {
  long long r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<long long> plus(std::optional<long long> a, std::optional<long long> b) {
  long long r = 0;
  if (!a || !b || __builtin_add_overflow(*a, *b, &r)) return std::nullopt;
  return r;
}

// k * [lo, hi] as a range, none on overflow.
std::optional<Range> scaled(const Range& r, long long k) {
  const auto lo = times(k, r.lo);
  const auto hi = times(k, r.hi);
  if (!lo || !hi) return std::nullopt;
  return Range{std::min(*lo, *hi), std::max(*lo, *hi)};
}

// A // d or A % d (d > 0) of a non-negative affine A over names of known non-negative ranges:
// A = d*Q + R with Q from the terms whose factor d divides, R the rest; when 0 <= R < d the
// quotient is Q and the remainder R, both affine. Otherwise none.
std::optional<Affine> divide(const Affine& a, long long d, bool remainder, const Ranges& ranges) {
  if (a.constant < 0) return std::nullopt;
  Affine q;
  Affine r;
  q.constant = a.constant / d;
  r.constant = a.constant % d;
  for (const auto& [name, k] : a.terms) {
    const auto it = ranges.find(name);
    if (k < 0 || it == ranges.end() || it->second.lo < 0) return std::nullopt;
    if (k % d == 0) {
      q.terms[name] = k / d;
    } else {
      r.terms[name] = k;
    }
  }
  const auto rest = affine_range(r, ranges);
  if (!rest || rest->lo < 0 || rest->hi >= d) return std::nullopt;
  return remainder ? r : q;
}

}  // namespace

std::optional<Range> affine_range(const Affine& a, const Ranges& ranges) {
  std::optional<long long> lo = a.constant;
  std::optional<long long> hi = a.constant;
  for (const auto& [name, k] : a.terms) {
    const auto it = ranges.find(name);
    if (it == ranges.end()) return std::nullopt;
    const auto term = scaled(it->second, k);
    if (!term) return std::nullopt;
    lo = plus(lo, term->lo);
    hi = plus(hi, term->hi);
  }
  if (!lo || !hi) return std::nullopt;
  return Range{*lo, *hi};
}

std::optional<Value> IndexParser::parse() {
  auto v = expression();
  skip();
  if (!v || pos_ != text_.size()) return std::nullopt;
  return v;
}

void IndexParser::skip() {
  while (pos_ < text_.size() && text_[pos_] == ' ') {
    ++pos_;
  }
}

bool IndexParser::take(std::string_view op) {
  skip();
  if (text_.substr(pos_, op.size()) != op) return false;
  pos_ += op.size();
  return true;
}

std::optional<Value> IndexParser::expression() {
  auto left = term();
  while (left) {
    const bool plus = take("+");
    if (!plus && !take("-")) break;
    const auto right = term();
    if (!right) return std::nullopt;
    left = combine(*left, *right, plus ? 1 : -1);
  }
  return left;
}

Value IndexParser::combine(const Value& a, const Value& b, long long sign) {
  Value out;
  out.divides = a.divides || b.divides;
  if (a.affine && b.affine) {
    Affine sum = *a.affine;
    auto constant = plus(sum.constant, times(sign, b.affine->constant));
    bool fits = constant.has_value();
    sum.constant = constant.value_or(0);
    for (const auto& [name, k] : b.affine->terms) {
      const auto factor = plus(sum.terms[name], times(sign, k));
      fits = fits && factor.has_value();
      sum.terms[name] = factor.value_or(0);
      if (sum.terms[name] == 0) sum.terms.erase(name);
    }
    if (fits) out.affine = sum;
  }
  if (a.range && b.range) {
    const auto lo =
        sign > 0 ? plus(a.range->lo, b.range->lo) : plus(a.range->lo, times(-1, b.range->hi));
    const auto hi =
        sign > 0 ? plus(a.range->hi, b.range->hi) : plus(a.range->hi, times(-1, b.range->lo));
    if (lo && hi) out.range = Range{*lo, *hi};
  }
  return out;
}

std::optional<Value> IndexParser::term() {
  skip();
  const std::size_t start = pos_;
  auto left = factor();
  while (left) {
    std::string op;
    if (take("//")) {
      op = "//";
    } else if (take("%")) {
      op = "%";
    } else if (take("*")) {
      op = "*";
    } else {
      break;
    }
    const auto right = factor();
    if (!right) return std::nullopt;
    left = apply(*left, op, *right);
    // A division that stays one (r0_3 % 17 of r0_3 up to 288) is a name of its own, of its
    // range: 256*(r0_3 % 17) is then a multiple of 128 like any other term.
    if (!left->affine && left->range && left->range->lo >= 0) {
      const std::string name = "(" + std::string(py::trim(text_.substr(start, pos_ - start))) + ")";
      ranges_[name] = *left->range;
      left->affine = Affine{{{name, 1}}, 0};
    }
  }
  return left;
}

Value IndexParser::apply(const Value& a, const std::string& op, const Value& b) const {
  Value out;
  out.divides = a.divides || b.divides || op != "*";
  const auto constant = [](const Value& v) -> std::optional<long long> {
    if (v.affine && v.affine->terms.empty()) return v.affine->constant;
    return std::nullopt;
  };
  if (op == "*") {
    const auto ka = constant(a);
    const auto kb = constant(b);
    if (!ka && !kb) return out;  // a product of two names: neither affine nor bounded here
    const long long k = ka ? *ka : *kb;
    const Value& v = ka ? b : a;
    if (v.affine) {
      Affine product = *v.affine;
      const auto c = times(product.constant, k);
      bool fits = c.has_value();
      product.constant = c.value_or(0);
      for (auto& [name, factor] : product.terms) {
        const auto f = times(factor, k);
        fits = fits && f.has_value();
        factor = f.value_or(0);
      }
      if (k == 0) product.terms.clear();
      if (fits) out.affine = product;
    }
    if (v.range) out.range = scaled(*v.range, k);
    return out;
  }
  const auto d = constant(b);
  if (!d || *d <= 0) return out;
  if (a.affine) out.affine = divide(*a.affine, *d, op == "%", ranges_);
  if (a.range && a.range->lo >= 0) {
    out.range = op == "//"         ? Range{a.range->lo / *d, a.range->hi / *d}
                : a.range->hi < *d ? *a.range
                                   : Range{0, *d - 1};
  }
  return out;
}

std::optional<Value> IndexParser::factor() {
  skip();
  if (pos_ >= text_.size()) return std::nullopt;
  const char c = text_[pos_];
  if (c == '(') {
    ++pos_;
    auto inner = expression();
    if (!inner || !take(")")) return std::nullopt;
    return inner;
  }
  if (c == '-') {  // a negative literal
    ++pos_;
    auto v = factor();
    if (!v || !v->affine || !v->affine->terms.empty()) return std::nullopt;
    v->affine->constant = -v->affine->constant;
    v->range = Range{v->affine->constant, v->affine->constant};
    return v;
  }
  std::size_t end = pos_;
  while (end < text_.size() && py::is_ident_char(text_[end])) {
    ++end;
  }
  if (end == pos_) return std::nullopt;
  const std::string word(text_.substr(pos_, end - pos_));
  pos_ = end;
  if (pos_ < text_.size() && (text_[pos_] == '.' || text_[pos_] == '[')) return std::nullopt;
  Value v;
  if (std::isdigit(static_cast<unsigned char>(word[0])) != 0) {
    if (!std::all_of(word.begin(), word.end(),
                     [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; }) ||
        word.size() > 15) {
      return std::nullopt;  // a float (1e5), a hex or a number too long to keep exact
    }
    const long long k = std::stoll(word);
    v.affine = Affine{{}, k};
    v.range = Range{k, k};
    return v;
  }
  if (const auto it = known_.aliases.find(word); it != known_.aliases.end()) {
    v.affine = it->second;
    v.range = affine_range(it->second, ranges_);
    return v;
  }
  v.affine = Affine{{{word, 1}}, 0};
  if (const auto it = ranges_.find(word); it != ranges_.end()) v.range = it->second;
  return v;
}

std::string affine_text(const Affine& a) {
  std::vector<std::string> parts;
  if (a.constant != 0 || a.terms.empty()) parts.push_back(std::to_string(a.constant));
  for (const auto& [name, k] : a.terms) {
    parts.push_back(k == 1 ? name : fmt::format("{}*{}", k, name));
  }
  std::string out = parts.front();
  for (std::size_t i = 1; i < parts.size(); ++i) {
    out += parts[i][0] == '-' ? " - " + parts[i].substr(1) : " + " + parts[i];
  }
  return out;
}

}  // namespace kernelopt::propose::detail
