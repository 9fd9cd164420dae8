// Statements of a kernel's lines as the rewrite proposer's text transformations read them
// (one_pass.cpp, shifted_sums.cpp): a line trimmed, a call written over several lines joined.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kernelopt::propose::detail {

// The text without its leading and trailing whitespace.
std::string trim(std::string_view text);

// `A, B = CALL(` ... `)` joined into one statement starting at line i, or "" when line i does
// not open such a call; `last` is set to the call's closing line.
std::string joined_call(const std::vector<std::string>& lines, std::size_t i, std::size_t& last);

}  // namespace kernelopt::propose::detail
