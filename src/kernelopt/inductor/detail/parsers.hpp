// The two halves of the output-code parser, called by parse_output_code: the Triton kernel
// blocks of the module and the statements of its `call`.
#pragma once

#include <string_view>
#include <vector>

#include "kernelopt/inductor/output_code.hpp"

namespace kernelopt::inductor::detail {

// The lines of one module and which of them lie inside a triple-quoted string.
struct ModuleLines {
  std::string_view text;                // the whole module
  std::vector<std::string_view> lines;  // views into text
  std::vector<bool> in_string;          // lines[i] starts inside ''' ... '''
};

// Every `NAME = async_compile.triton(...)` block, in definition order.
std::vector<TritonKernel> parse_kernels(const ModuleLines& module);

// Parses the `def call` body that starts after line index `def_index` (0-based) into code.steps,
// code.buffers, code.graph_inputs and code.returns. code.kernels must already be filled.
void parse_call(const ModuleLines& module, std::size_t def_index, OutputCode& code);

// Fills the graph inputs of code.buffers (dtype, device, and shape when call states none) from
// the `NAME = rand_strided(...)` example inputs found at or after line index `from`.
void read_example_inputs(const ModuleLines& module, std::size_t from, OutputCode& code);

// The ATen op names in a comment's "Original ATen: [aten.relu, aten.add]", empty when absent.
std::vector<std::string> original_aten(std::string_view comment);

}  // namespace kernelopt::inductor::detail
