#include "kernelopt/recompose/instrument.hpp"

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace kernelopt::recompose {

namespace {

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

}  // namespace

bool is_launch(inductor::StepKind kind) {
  return kind == inductor::StepKind::kTritonLaunch || kind == inductor::StepKind::kExternCall ||
         kind == inductor::StepKind::kAtenFallback;
}

Instrumented instrument_launches(const std::string& text, const inductor::OutputCode& code) {
  const std::vector<std::string> lines = split_lines(text);
  std::map<int, std::string> before;  // 1-based line -> mark inserted before it
  std::map<int, std::string> after;   // 1-based line -> mark inserted after it
  Instrumented result;
  for (const inductor::Step& step : code.steps) {
    if (!is_launch(step.kind)) continue;
    if (step.line < 1 || step.end_line > static_cast<int>(lines.size())) continue;
    const std::string mark = indentation(lines[step.line - 1]) + "_ko_mark()\n";
    if (result.launches == 0) {
      before[step.line] = mark;
      ++result.marks;
    }
    after[step.end_line] = mark;
    ++result.marks;
    ++result.launches;
  }
  std::ostringstream out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int number = static_cast<int>(i) + 1;
    if (auto it = before.find(number); it != before.end()) out << it->second;
    out << lines[i];
    if (!lines[i].empty() && lines[i].back() != '\n' && after.count(number) != 0) out << '\n';
    if (auto it = after.find(number); it != after.end()) out << it->second;
  }
  result.text = out.str();
  return result;
}

}  // namespace kernelopt::recompose
