// Line-level edits of a source text, applied in one pass so that line numbers from the parse stay
// valid: insert before or after a line, or replace a range of lines. Internal to recompose/.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace kernelopt::recompose {

// The text's lines, each with its '\n' (the last one may lack it).
std::vector<std::string> split_lines(const std::string& text);

// The leading spaces and tabs of a line.
std::string indentation(const std::string& line);

class LineEdits {
 public:
  // Inserts `text` (whole lines, each ending in '\n') before 1-based line `line`.
  void insert_before(int line, const std::string& text) { before_[line] += text; }

  // Inserts `text` after 1-based line `line`.
  void insert_after(int line, const std::string& text) { after_[line] += text; }

  // Replaces lines [first, last] (1-based, inclusive) by `text`; ranges must not overlap.
  void replace(int first, int last, const std::string& text) { ranges_[first] = {last, text}; }

  // The edited text.
  std::string apply(const std::string& text) const;

 private:
  std::map<int, std::string> before_;
  std::map<int, std::string> after_;
  std::map<int, std::pair<int, std::string>> ranges_;
};

}  // namespace kernelopt::recompose
