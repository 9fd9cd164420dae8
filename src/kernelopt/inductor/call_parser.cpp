// The statements of `call`: graph inputs, allocations, aliases, launches, extern calls, ATen
// fallbacks, deletions and the return. Reads and writes are given as root buffers: aliases
// (reinterpret_tensor, `bufN = bufM  # reuse`, `bufN = bufM[k]`) are followed to the
// allocation or graph input they view.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/parsers.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"

namespace kernelopt::inductor::detail {

void parse_call(const ModuleLines& module, std::size_t def_index, OutputCode& code) {
  CallStatements parser(code);
  const std::size_t def_indent = indentation(module.lines[def_index]);
  std::string pending;  // a statement whose brackets are still open
  int balance = 0;
  int first_line = 0;
  for (std::size_t i = def_index + 1; i < module.lines.size(); ++i) {
    const std::string_view line = module.lines[i];
    const std::string_view text = trim(line);
    const int number = static_cast<int>(i) + 1;
    if (pending.empty()) {
      if (text.empty()) continue;
      if (text[0] == '#') {
        parser.comment(text);
        continue;
      }
      if (indentation(line) <= def_indent) break;
      first_line = number;
    }
    const std::string_view code_part = trim(line.substr(0, comment_start(line)));
    if (!pending.empty() && !code_part.empty()) pending += ' ';
    pending += code_part;
    balance += bracket_balance(line);
    if (balance > 0 || (!pending.empty() && pending.back() == '\\')) {
      if (!pending.empty() && pending.back() == '\\') pending.pop_back();
      continue;
    }
    for (const std::string& statement : split_top_level(pending, ';')) {
      parser.statement(statement, first_line, number);
    }
    pending.clear();
    balance = 0;
  }
}

}  // namespace kernelopt::inductor::detail
