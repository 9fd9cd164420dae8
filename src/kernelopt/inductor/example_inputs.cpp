// The example inputs of the benchmark harness Inductor appends to the module (`get_args()`, or
// `benchmark_compiled_module` in older torch): `arg0_1 = rand_strided((16, 64), (64, 1),
// device='cuda:0', dtype=torch.float32)`. They state what `call` does not: a graph input's dtype.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernelopt/inductor/detail/call_statements.hpp"
#include "kernelopt/inductor/detail/parsers.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"

namespace kernelopt::inductor::detail {

namespace {

constexpr std::string_view kRandStrided = "rand_strided(";

// "cuda" from "'cuda:0'".
std::string device_of(std::string_view text) {
  text = trim(text);
  if (!text.empty() && (text.front() == '\'' || text.front() == '"')) text.remove_prefix(1);
  return std::string(text.substr(0, text.find_first_of("'\":")));
}

// Fills the graph input `name` from the arguments of its rand_strided call.
void fill_input(const std::string& name, const CallExpr& call, OutputCode& code) {
  Buffer* buffer = nullptr;
  for (Buffer& candidate : code.buffers) {
    if (candidate.name == name && candidate.is_graph_input) buffer = &candidate;
  }
  if (buffer == nullptr) return;
  std::size_t position = 0;
  std::vector<std::string> shape;
  std::vector<std::string> stride;
  for (const std::string& arg : call.args) {
    const auto [key, value] = split_keyword(arg);
    if (key == "dtype") buffer->dtype = value;
    if (key == "device") buffer->device = device_of(value);
    if (key.empty() && position == 0) shape = split_top_level(strip_brackets(value));
    if (key.empty() && position == 1) stride = split_top_level(strip_brackets(value));
    if (key.empty()) ++position;
  }
  if (!buffer->shape_known && position >= 2) {  // call's assert (symbolic) wins over examples
    buffer->shape = shape;
    buffer->stride = stride;
    buffer->shape_known = true;
  }
}

}  // namespace

void read_example_inputs(const ModuleLines& module, std::size_t from, OutputCode& code) {
  for (std::size_t i = from; i < module.lines.size(); ++i) {
    if (module.in_string[i]) continue;
    std::string statement(trim(module.lines[i]));
    if (statement.find(kRandStrided) == std::string::npos) continue;
    for (int balance = bracket_balance(statement); balance > 0 && i + 1 < module.lines.size();) {
      const std::string_view next = module.lines[++i];
      statement += ' ';
      statement += trim(next);
      balance += bracket_balance(next);
    }
    const auto [lhs, rhs] = split_keyword(statement);
    const std::optional<CallExpr> call = as_call(rhs);
    if (!is_identifier(lhs) || !call || call->callee != "rand_strided") continue;
    fill_input(lhs, *call, code);
  }
}

}  // namespace kernelopt::inductor::detail
