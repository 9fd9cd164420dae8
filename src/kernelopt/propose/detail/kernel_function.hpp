// A @triton.jit function read from a kernel's module text, and the pieces of its lines that the
// fuse rewrite (fuse.cpp, split_norm.cpp) reads and writes: pointer parameters, `PTR + INDEX`
// addresses, a def line with added parameters.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kernelopt::propose::detail {

struct Function {
  std::vector<std::string> head;  // the module text's lines before the body (decorator, def)
  std::size_t def = 0;            // index of the `def` line in head
  std::vector<std::string> params;
  std::vector<std::string> body;  // indented lines after the def
  std::vector<std::string> tail;  // lines after the body
};

// The @triton.jit function of a kernel's module text, or nullopt when the def is not one line.
std::optional<Function> function_of(const std::string& source);

// The line's leading spaces.
std::string indent_of(const std::string& line);

// "PTR + (INDEX)" or "PTR + INDEX": {PTR, INDEX}.
std::optional<std::pair<std::string, std::string>> pointer_plus(const std::string& arg);

// Whether a parameter is one of Inductor's pointers (in_ptrN, out_ptrN, in_out_ptrN).
bool pointer_param(const std::string& name);

// The function's `def` line renamed `name`, with `added` parameters after its last pointer
// parameter (the others as written, annotations kept); nullopt when it has no pointer.
std::optional<std::string> def_with_pointers(const Function& f,
                                             const std::string& name,
                                             const std::vector<std::string>& added);

}  // namespace kernelopt::propose::detail
