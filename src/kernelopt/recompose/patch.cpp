#include "kernelopt/recompose/patch.hpp"

#include <set>

#include <fmt/format.h>

#include "kernelopt/core/check.hpp"
#include "kernelopt/core/error.hpp"
#include "kernelopt/recompose/lines.hpp"

namespace kernelopt::recompose {

namespace {

using inductor::StepKind;

int definition_line(const std::vector<std::string>& lines, const inductor::OutputCode& code) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("class Runner", 0) == 0 || lines[i].rfind("def call(", 0) == 0) {
      return static_cast<int>(i) + 1;
    }
  }
  if (code.call_line > 0) return code.call_line;
  throw Error("kernelopt.recompose", "the output code has no `call` to patch");
}

std::string loader(const std::vector<Replacement>& replacements) {
  std::string out =
      "# kernelopt: the replaced segments' candidates, loaded from this module's folder\n"
      "def _ko_candidate(file_name):\n"
      "    import importlib.util\n"
      "    import os\n"
      "    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), file_name)\n"
      "    spec = importlib.util.spec_from_file_location('kernelopt_candidate_' + "
      "file_name[:-3], path)\n"
      "    module = importlib.util.module_from_spec(spec)\n"
      "    spec.loader.exec_module(module)\n"
      "    return module.run\n\n";
  for (const auto& r : replacements) {
    out +=
        fmt::format("_ko_segment_{} = _ko_candidate('{}')\n", r.segment.segment, r.candidate_file);
  }
  return out + "\n\n";
}

// The region of one segment rewritten: kept statements, the call, then the dels.
std::string rewrite_region(const std::vector<std::string>& lines,
                           const inductor::OutputCode& code,
                           const Replacement& r) {
  const SegmentInterface& face = r.segment;
  const int first_line = code.steps[face.first_step].line;
  const int last_line = code.steps[face.last_step].end_line;
  const std::string indent = indentation(lines[first_line - 1]);
  std::set<int> covered;
  std::string prefix;
  std::string suffix;
  int step = face.first_step;
  for (int line = first_line; line <= last_line; ++line) {
    bool any = false;
    for (; step <= face.last_step && code.steps[step].line == line; ++step) {
      const inductor::Step& s = code.steps[step];
      any = true;
      for (int l = s.line; l <= s.end_line; ++l) {
        covered.insert(l);
      }
      if (s.kind == StepKind::kTritonLaunch) continue;
      // An extern call is replaced only as a segment of its own (--no-dispatch-aware).
      if (s.kind == StepKind::kExternCall && face.first_step == face.last_step) continue;
      KO_CHECK(s.kind != StepKind::kExternCall && s.kind != StepKind::kAtenFallback);
      (s.kind == StepKind::kDel ? suffix : prefix) += indent + s.text + "\n";
    }
    if (!any && covered.count(line) == 0) prefix += lines[line - 1];
  }
  return prefix +
         fmt::format("{}_ko_segment_{}({}, {})\n", indent, face.segment, dict_literal(face.inputs),
                     dict_literal(face.outputs)) +
         suffix;
}

}  // namespace

std::string probe_segments(const std::string& text,
                           const inductor::OutputCode& code,
                           const std::vector<SegmentInterface>& segments) {
  const std::vector<std::string> lines = split_lines(text);
  LineEdits edits;
  for (const auto& face : segments) {
    const inductor::Step& first = code.steps[face.first_step];
    const std::string indent = indentation(lines[first.line - 1]);
    edits.insert_before(first.line, fmt::format("{}_ko_probe({}, 'in', {})\n", indent, face.segment,
                                                dict_literal(face.inputs)));
    std::map<int, std::map<std::string, std::string>> by_step;  // probe point -> outputs
    for (const auto& [root, name] : face.outputs) {
      by_step[face.output_steps.at(root)][root] = name;
    }
    for (const auto& [step, names] : by_step) {
      edits.insert_after(
          code.steps[step].end_line,
          fmt::format("{}_ko_probe({}, 'out', {})\n", indent, face.segment, dict_literal(names)));
    }
  }
  return edits.apply(text);
}

std::string substitute_segments(const std::string& text,
                                const inductor::OutputCode& code,
                                const std::vector<Replacement>& replacements) {
  const std::vector<std::string> lines = split_lines(text);
  LineEdits edits;
  if (replacements.empty()) return text;
  edits.insert_before(definition_line(lines, code), loader(replacements));
  for (const auto& r : replacements) {
    edits.replace(code.steps[r.segment.first_step].line, code.steps[r.segment.last_step].end_line,
                  rewrite_region(lines, code, r));
  }
  return edits.apply(text);
}

}  // namespace kernelopt::recompose
