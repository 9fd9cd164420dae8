#include "kernelopt/recompose/lines.hpp"

#include "kernelopt/core/check.hpp"

namespace kernelopt::recompose {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size() - 1;
    lines.push_back(text.substr(start, end - start + 1));
    start = end + 1;
  }
  return lines;
}

std::string indentation(const std::string& line) {
  return line.substr(0, line.find_first_not_of(" \t"));
}

std::string LineEdits::apply(const std::string& text) const {
  const std::vector<std::string> lines = split_lines(text);
  std::string out;
  out.reserve(text.size() + 1024);
  int skip_until = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int number = static_cast<int>(i) + 1;
    if (auto it = before_.find(number); it != before_.end()) out += it->second;
    if (auto it = ranges_.find(number); it != ranges_.end()) {
      KO_CHECK(number > skip_until);
      out += it->second.second;
      skip_until = it->second.first;
    }
    if (number > skip_until) {
      out += lines[i];
      if (!lines[i].empty() && lines[i].back() != '\n' && after_.count(number) != 0) out += '\n';
    }
    if (auto it = after_.find(number); it != after_.end()) out += it->second;
  }
  return out;
}

}  // namespace kernelopt::recompose
