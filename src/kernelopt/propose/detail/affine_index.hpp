// Index expressions of a kernel's straight-line code as affine forms over its index names, with
// the ranges the names take: how the tidying of pasted code (straight_line.cpp) simplifies an
// index.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace kernelopt::propose::detail {

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

// The range of an affine form over names of known ranges; none where a name has none or on
// overflow.
std::optional<Range> affine_range(const Affine& a, const Ranges& ranges);

// The affine form as index text: `c + k*name - ...` (names in order).
std::string affine_text(const Affine& a);

// A parser of index expressions (integers, index names, + - * // % and brackets) into their affine
// form and range, given the ranges and aliases known so far.
class IndexParser {
 public:
  IndexParser(std::string_view text, const Known& known)
      : text_(text), known_(known), ranges_(known.ranges) {}

  std::optional<Value> parse();

  // The known ranges and those of the divisions that stayed (names that aliases may hold).
  [[nodiscard]] const std::map<std::string, Range>& ranges() const { return ranges_; }

 private:
  void skip();

  bool take(std::string_view op);

  std::optional<Value> expression();

  static Value combine(const Value& a, const Value& b, long long sign);

  std::optional<Value> term();

  [[nodiscard]] Value apply(const Value& a, const std::string& op, const Value& b) const;

  std::optional<Value> factor();

  std::string_view text_;
  const Known& known_;
  std::map<std::string, Range> ranges_;  // the known ranges and this text's divisions
  std::size_t pos_ = 0;
};

}  // namespace kernelopt::propose::detail
