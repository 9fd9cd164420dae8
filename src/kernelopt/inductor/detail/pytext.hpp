// Helpers for reading the Python text Inductor writes: lines, brackets, top-level argument lists
// and literals. Used by the inductor parsers and by search's matchers and source rewrites;
// tolerant by design (never throws).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace kernelopt::inductor::detail {

// `text` without leading and trailing whitespace.
std::string_view trim(std::string_view text);

// The lines of `text` without their terminators ("\n" or "\r\n").
std::vector<std::string_view> split_lines(std::string_view text);

// For each line, whether it starts inside a triple-quoted string (''' or """).
std::vector<bool> lines_in_triple_quotes(const std::vector<std::string_view>& lines);

// Offset of the '#' that starts a comment on this line (outside quotes), or npos.
std::size_t comment_start(std::string_view line);

// Net count of opening minus closing brackets ((), [], {}) outside quotes and comments.
int bracket_balance(std::string_view line);

// Offset of the bracket that closes the one at `open` (respecting nesting and quotes), or npos.
std::size_t find_closing(std::string_view text, std::size_t open);

// Splits at `sep` outside brackets and quotes; pieces are trimmed and an empty last piece (a
// trailing comma, as in `(16384, )`) is dropped. Empty text gives no pieces.
std::vector<std::string> split_top_level(std::string_view text, char sep = ',');

// Splits `name=value` at a top-level '=' (not ==, <=, >=, !=): {"name", "value"}, or
// {"", text} when the text is not a keyword argument or assignment.
std::pair<std::string, std::string> split_keyword(std::string_view text);

// The names a plain assignment's left side binds ("a", or "a, b, c"), with its right side in
// `rhs`; none when the statement is not one (a comparison, an augmented assignment, a call).
std::vector<std::string> assigned_names(std::string_view statement, std::string* rhs);

// How many spaces start the line (its length when it is all spaces).
std::size_t indentation(std::string_view line);

// Line `i` trimmed and joined, with single spaces, to the lines after it while a bracket it opens
// is still open (one Python statement over several physical lines); `i` is left at its last line.
std::string joined_statement(const std::vector<std::string>& lines, std::size_t& i);

// Whether `c` may stand inside a Python identifier (a letter, a digit or '_').
bool is_ident_char(char c);

// Whether `text` is a Python identifier.
bool is_identifier(std::string_view text);

// Identifiers that occur in `text` outside quotes, in order (dotted names give each part).
std::vector<std::string> identifiers(std::string_view text);

// The text inside the outer brackets when `text` is wrapped by one bracket pair ("(a, b)",
// "[a]"), else `text` itself, trimmed.
std::string_view strip_brackets(std::string_view text);

// Parses a Python literal: ints, floats, quoted strings, True/False/None, dicts, lists and
// tuples (as arrays), nested. Dict keys that are not strings keep their text ("0", "(0,)").
// Anything else (calls such as `DeviceProperties(...)` or `set()`, names such as
// `ReductionHint.INNER`) is kept as its text, a string. ordered_json keeps dict order, which
// matters: a Triton signature's order is its parameter order.
nlohmann::ordered_json parse_literal(std::string_view text);

}  // namespace kernelopt::inductor::detail
