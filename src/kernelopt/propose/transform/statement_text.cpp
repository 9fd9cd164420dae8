// Statements of a kernel's lines for the rewrite's text transformations
// (detail/statement_text.hpp).
#include "kernelopt/propose/detail/statement_text.hpp"

#include "kernelopt/inductor/detail/pytext.hpp"

namespace kernelopt::propose::detail {

namespace py = inductor::detail;

std::string trim(std::string_view text) {
  return std::string(inductor::detail::trim(text));
}

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

}  // namespace kernelopt::propose::detail
