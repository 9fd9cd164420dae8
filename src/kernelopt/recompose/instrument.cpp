#include "kernelopt/recompose/instrument.hpp"

#include <string>
#include <vector>

#include "kernelopt/recompose/lines.hpp"

namespace kernelopt::recompose {

Instrumented instrument_launches(const std::string& text, const inductor::OutputCode& code) {
  const std::vector<std::string> lines = split_lines(text);
  LineEdits edits;
  Instrumented result;
  for (const inductor::Step& step : code.steps) {
    if (!inductor::is_launch(step.kind)) continue;
    if (step.line < 1 || step.end_line > static_cast<int>(lines.size())) continue;
    const std::string mark = indentation(lines[step.line - 1]) + "_ko_mark()\n";
    if (result.launches == 0) {
      edits.insert_before(step.line, mark);
      ++result.marks;
    }
    edits.insert_after(step.end_line, mark);
    ++result.marks;
    ++result.launches;
  }
  result.text = edits.apply(text);
  return result;
}

}  // namespace kernelopt::recompose
