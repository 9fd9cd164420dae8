// Tidying of pasted kernel code: index simplification, mask narrowing, common statements merged
// (detail/straight_line.hpp says what and why).
#include "kernelopt/propose/detail/straight_line.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"

namespace kernelopt::propose::detail {

namespace {

namespace py = inductor::detail;

// ---- index expressions: integers, index names, + - * // % and brackets ----

struct Range {
  long long lo = 0;
  long long hi = 0;  // inclusive
};

// c + sum(k * name): an index expression without division.
struct Affine {
  std::map<std::string, long long> terms;
  long long constant = 0;
};

struct Value {
  std::optional<Affine> affine;  // none: not affine in the known names
  std::optional<Range> range;    // none: unknown
  bool divides = false;          // the text holds // or %
};

struct Known {
  std::map<std::string, Range> ranges;    // index names (valid lanes only)
  std::map<std::string, Affine> aliases;  // pasted names with an affine definition
};

using Ranges = std::map<std::string, Range>;

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

class IndexParser {
 public:
  IndexParser(std::string_view text, const Known& known)
      : text_(text), known_(known), ranges_(known.ranges) {}

  std::optional<Value> parse() {
    auto v = expression();
    skip();
    if (!v || pos_ != text_.size()) return std::nullopt;
    return v;
  }

  // The known ranges and those of the divisions that stayed (names that aliases may hold).
  [[nodiscard]] const std::map<std::string, Range>& ranges() const { return ranges_; }

 private:
  void skip() {
    while (pos_ < text_.size() && text_[pos_] == ' ') {
      ++pos_;
    }
  }

  bool take(std::string_view op) {
    skip();
    if (text_.substr(pos_, op.size()) != op) return false;
    pos_ += op.size();
    return true;
  }

  std::optional<Value> expression() {
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

  static Value combine(const Value& a, const Value& b, long long sign) {
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

  std::optional<Value> term() {
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
        const std::string name =
            "(" + std::string(py::trim(text_.substr(start, pos_ - start))) + ")";
        ranges_[name] = *left->range;
        left->affine = Affine{{{name, 1}}, 0};
      }
    }
    return left;
  }

  [[nodiscard]] Value apply(const Value& a, const std::string& op, const Value& b) const {
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

  std::optional<Value> factor() {
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

  std::string_view text_;
  const Known& known_;
  std::map<std::string, Range> ranges_;  // the known ranges and this text's divisions
  std::size_t pos_ = 0;
};

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

// ---- dimensions of a tile: x, y, z and the reduction dimensions ----

using Dims = std::set<std::string>;

// The dimension an index base or a dimension's mask stands for, or "".
std::string base_dim(const std::string& name, bool mask) {
  static const std::map<std::string, std::string> index_dims = {
      {"xindex", "x"},    {"yindex", "y"},    {"zindex", "z"},
      {"r0_index", "r0"}, {"r1_index", "r1"}, {"rindex", "r0"},
      {"r0_base", "r0"},  {"r1_base", "r1"},  {"rbase", "r0"}};
  static const std::map<std::string, std::string> mask_dims = {{"xmask", "x"},    {"ymask", "y"},
                                                               {"zmask", "z"},    {"r0_mask", "r0"},
                                                               {"r1_mask", "r1"}, {"rmask", "r0"}};
  const auto& table = mask ? mask_dims : index_dims;
  const auto it = table.find(name);
  return it == table.end() ? "" : it->second;
}

// "a & (b) & c": its conjuncts, or none when a conjunct is not a name.
std::optional<std::vector<std::string>> conjuncts(const std::string& mask) {
  std::vector<std::string> out;
  for (const auto& piece : py::split_top_level(mask, '&')) {
    std::string name(py::strip_brackets(piece));
    if (!py::is_identifier(name)) return std::nullopt;
    out.push_back(name);
  }
  return out;
}

// How many // and % the text holds.
int divisions(const std::string& text) {
  int n = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%') ++n;
    if (text.compare(i, 2, "//") == 0) {
      ++n;
      ++i;
    }
  }
  return n;
}

bool barrier(const std::string& text) {
  for (const char* op : {"tl.store", "tl.atomic", "tl.debug_barrier", "tl.inline_asm"}) {
    if (text.find(op) != std::string::npos) return true;
  }
  return false;
}

bool pure(const std::string& rhs) {
  for (const char* op :
       {"tl.atomic", "inline_asm", "print", "device_assert", "tl.rand", "debug_barrier"}) {
    if (rhs.find(op) != std::string::npos) return false;
  }
  return true;
}

}  // namespace

std::string map_identifiers(const std::string& line,
                            const std::function<std::string(const std::string&)>& visit) {
  std::string out;
  char quote = 0;
  for (std::size_t i = 0; i < line.size();) {
    const char c = line[i];
    if (quote != 0) {
      out += c;
      if (c == quote) quote = 0;
      ++i;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      out += c;
      ++i;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_') {
      std::size_t j = i;
      while (j < line.size() && py::is_ident_char(line[j])) {
        ++j;
      }
      const std::string name = line.substr(i, j - i);
      const bool attribute = i > 0 && line[i - 1] == '.';
      out += attribute ? name : visit(name);
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {  // a number (1e-05 stays whole)
      std::size_t j = i;
      while (j < line.size() &&
             (py::is_ident_char(line[j]) || line[j] == '.' ||
              ((line[j] == '-' || line[j] == '+') && (line[j - 1] == 'e' || line[j - 1] == 'E')))) {
        ++j;
      }
      out += line.substr(i, j - i);
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

Tidied tidy_pasted(const std::vector<std::string>& body, const std::vector<bool>& pasted) {
  Tidied out;
  // Names assigned more than once (loop accumulators) are never merged nor merged into.
  std::map<std::string, int> assigned;
  for (const auto& line : body) {
    const std::string t(py::trim(line));
    std::string rhs;
    for (const auto& name : py::assigned_names(t, &rhs)) {
      ++assigned[name];
    }
    const auto [lhs, value] = py::split_keyword(t);
    if (lhs.empty() && t.find("= ") != std::string::npos) {  // `a += b` and the like
      const std::size_t end =
          t.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
      if (end != std::string::npos && end > 0) assigned[t.substr(0, end)] += 2;
    }
  }
  const auto single = [&](const std::string& name) {
    const auto it = assigned.find(name);
    return it == assigned.end() || it->second == 1;
  };
  Known known;
  std::map<std::string, long long> numel;  // x, y, ... -> its numel
  std::map<std::string, Dims> dims;
  std::set<std::string> trivial_masks;  // `ymask = tl.full([YBLOCK], True, tl.int1)[:, None]`
  std::map<std::string, std::string> renames;
  std::map<std::string, std::string> seen;  // right side -> the first name that holds it
  std::size_t block_indent = std::string::npos;
  const auto dims_of = [&](const std::string& text) {
    Dims d;
    for (const auto& id : py::identifiers(text)) {
      if (const auto b = base_dim(id, false); !b.empty()) d.insert(b);
      if (const auto b = base_dim(id, true); !b.empty()) d.insert(b);
      if (const auto it = dims.find(id); it != dims.end()) {
        d.insert(it->second.begin(), it->second.end());
      }
    }
    return d;
  };
  for (std::size_t i = 0; i < body.size(); ++i) {
    const std::string& raw = body[i];
    const std::string t(py::trim(raw));
    if (t.empty() || t[0] == '#') {
      out.body.push_back(raw);
      continue;
    }
    const std::size_t indent = py::indentation(raw);
    if (indent != block_indent || t.back() == ':') seen.clear();
    block_indent = t.back() == ':' ? std::string::npos : indent;
    std::string line = map_identifiers(raw, [&](const std::string& id) {
      const auto it = renames.find(id);
      return it == renames.end() ? id : it->second;
    });
    if (barrier(t)) seen.clear();
    std::string rhs;
    const auto names = py::assigned_names(py::trim(line), &rhs);
    if (names.size() != 1) {
      out.body.push_back(line);
      if (pasted[i]) ++out.pasted_kept;
      continue;
    }
    const std::string& name = names.front();
    const std::string pad = raw.substr(0, indent);
    // Numels and index ranges.
    if (name.size() > 5 && name.substr(name.size() - 5) == "numel") {
      const std::string dim = name.substr(0, name.size() - 5);
      if (!rhs.empty() && rhs.size() <= 15 && std::all_of(rhs.begin(), rhs.end(), [](char ch) {
            return std::isdigit(static_cast<unsigned char>(ch)) != 0;
          })) {
        numel[dim == "r" ? "r0_" : dim] = std::stoll(rhs);
      }
    }
    const std::string dim = base_dim(name, false);
    if (!dim.empty()) {
      dims[name] = {dim};
      const std::string key = dim == "x" || dim == "y" || dim == "z" ? dim : dim + "_";
      if (const auto it = numel.find(key);
          it != numel.end() && name.find("base") == std::string::npos) {
        known.ranges[name] = Range{0, it->second - 1};
      }
      out.body.push_back(line);
      if (pasted[i]) ++out.pasted_kept;
      continue;
    }
    if (!base_dim(name, true).empty() && rhs.rfind("tl.full(", 0) == 0 &&
        rhs.find("True") != std::string::npos) {
      trivial_masks.insert(name);
    }
    // What the name holds, as an index: its affine form, its range.
    IndexParser parser(rhs, known);
    auto index = parser.parse();
    if (index && pasted[i] && index->affine && index->divides) {  // index simplification
      const std::string text = affine_text(*index->affine);
      if (divisions(text) < divisions(rhs)) {
        rhs = text;
        index->range = affine_range(*index->affine, parser.ranges());  // the range of the text
        ++out.simplified;
      }
    }
    if (index) {
      for (const auto& [atom, range] : parser.ranges()) {
        known.ranges.emplace(atom, range);
      }
      if (index->range) known.ranges[name] = *index->range;
      if (pasted[i] && index->affine) known.aliases[name] = *index->affine;
    }
    if (pasted[i]) {
      // Mask narrowing (a load is no index: what the parser read of it is nothing).
      if (const auto args = py::call_args(rhs, "tl.load"); args && args->size() >= 2) {
        const auto parts = conjuncts((*args)[1]);
        if (parts) {
          const Dims address = dims_of((*args)[0]);
          std::vector<std::string> kept;
          bool known_masks = true;
          for (const auto& part : *parts) {
            const std::string d = base_dim(part, true);
            if (d.empty()) known_masks = false;
            if (address.count(d) != 0 && trivial_masks.count(part) == 0) kept.push_back(part);
          }
          if (known_masks && kept.size() < parts->size()) {
            auto narrowed = *args;
            narrowed[1] =
                kept.empty() ? std::string("None") : fmt::format("{}", fmt::join(kept, " & "));
            rhs = fmt::format("tl.load({})", fmt::join(narrowed, ", "));
            ++out.narrowed;
          }
        }
      }
    }
    dims[name] = dims_of(rhs);
    // Common statements.
    bool mergeable = single(name) && pure(rhs);
    for (const auto& id : py::identifiers(rhs)) {
      mergeable = mergeable && single(id);
    }
    if (mergeable) {
      const bool literal = rhs == "None" || rhs == "True" || rhs == "False";
      if (pasted[i] && py::is_identifier(rhs) && !literal && rhs != name) {  // a copy
        renames[name] = rhs;
        ++out.merged;
        continue;
      }
      if (const auto it = seen.find(rhs); it != seen.end()) {
        if (pasted[i]) {
          renames[name] = it->second;
          ++out.merged;
          continue;
        }
      } else {
        seen[rhs] = name;
      }
    }
    std::string kept = pad;
    kept.append(name).append(" = ").append(rhs);
    out.body.push_back(std::move(kept));
    if (pasted[i]) ++out.pasted_kept;
  }
  return out;
}

}  // namespace kernelopt::propose::detail
