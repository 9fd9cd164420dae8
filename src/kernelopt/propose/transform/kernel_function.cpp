// Reading a kernel's @triton.jit function and the pieces of its lines the fuse rewrite uses
// (detail/kernel_function.hpp).
#include "kernelopt/propose/detail/kernel_function.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/transform/buffer_names.hpp"

namespace kernelopt::propose::detail {

namespace py = inductor::detail;

std::optional<Function> function_of(const std::string& source) {
  Function f;
  const auto lines = py::split_lines(source);
  std::size_t i = 0;
  bool found = false;
  for (; i < lines.size(); ++i) {
    f.head.emplace_back(lines[i]);
    if (lines[i].rfind("def ", 0) == 0) {
      found = true;
      break;
    }
  }
  if (!found) return std::nullopt;
  f.def = f.head.size() - 1;
  const std::string def = f.head.back();
  const std::size_t open = def.find('(');
  const std::size_t close = open == std::string::npos ? open : py::find_closing(def, open);
  if (close == std::string::npos || def.substr(close) != "):") return std::nullopt;
  for (const auto& piece :
       py::split_top_level(std::string_view(def).substr(open + 1, close - open - 1))) {
    const std::size_t colon = piece.find(':');
    f.params.emplace_back(py::trim(colon == std::string::npos
                                       ? std::string_view(piece)
                                       : std::string_view(piece).substr(0, colon)));
  }
  for (++i; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (!line.empty() && line.rfind("    ", 0) != 0) break;
    f.body.emplace_back(line);
  }
  for (; i < lines.size(); ++i) {
    f.tail.emplace_back(lines[i]);
  }
  while (!f.body.empty() && py::trim(f.body.back()).empty()) {
    f.body.pop_back();
  }
  return f;
}

std::string indent_of(const std::string& line) {
  return line.substr(0, line.find_first_not_of(' '));
}

std::optional<std::pair<std::string, std::string>> pointer_plus(const std::string& arg) {
  const std::size_t plus = arg.find(" + ");
  if (plus == std::string::npos) return std::nullopt;
  const std::string ptr(py::trim(std::string_view(arg).substr(0, plus)));
  if (!identifier(ptr)) return std::nullopt;
  return std::pair{ptr, std::string(py::trim(std::string_view(arg).substr(plus + 3)))};
}

bool pointer_param(const std::string& name) {
  return name.rfind("in_ptr", 0) == 0 || name.rfind("out_ptr", 0) == 0 ||
         name.rfind("in_out_ptr", 0) == 0;
}

std::optional<std::string> def_with_pointers(const Function& f,
                                             const std::string& name,
                                             const std::vector<std::string>& added) {
  std::string last_pointer;
  for (const auto& param : f.params) {
    if (pointer_param(param)) last_pointer = param;
  }
  if (last_pointer.empty()) return std::nullopt;
  const std::string& def = f.head[f.def];
  const std::size_t open = def.find('(');
  const auto written =
      py::split_top_level(std::string_view(def).substr(open + 1, def.size() - open - 3));
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < written.size(); ++i) {
    texts.push_back(written[i]);
    if (f.params[i] == last_pointer) texts.insert(texts.end(), added.begin(), added.end());
  }
  return fmt::format("def {}({}):", name, fmt::join(texts, ", "));
}

}  // namespace kernelopt::propose::detail
