// parse_output_code: finds the kernels and the `call` of one module, then the JSON view of the
// result (the golden-file format).
#include "kernelopt/inductor/output_code.hpp"

#include <cstdint>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/inductor/detail/parsers.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"

namespace kernelopt::inductor {

namespace {

using detail::trim;

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The index of the line that opens `call` and the style it is written in, or false.
bool find_call(const detail::ModuleLines& module, std::size_t& index, std::string& style) {
  bool in_runner = false;
  for (std::size_t i = 0; i < module.lines.size(); ++i) {
    if (module.in_string[i]) continue;
    const std::string_view line = module.lines[i];
    if (!line.empty() && line[0] != ' ' && line[0] != '#') {
      in_runner = starts_with(line, "class Runner");
    }
    if (starts_with(line, "def call(")) {
      index = i;
      style = "def call";
      return true;
    }
    if (in_runner && starts_with(trim(line), "def call(")) {
      index = i;
      style = "Runner.call";
      return true;
    }
  }
  return false;
}

// FNV-1a, 64 bits: a short stable fingerprint of a kernel's source for the JSON view.
std::string source_hash(std::string_view source) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : source) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", hash);
}

nlohmann::json kernel_json(const TritonKernel& kernel) {
  nlohmann::json signature = nlohmann::json::array();
  for (const SignatureArg& arg : kernel.signature) {
    signature.push_back({arg.name, arg.type});
  }
  const auto fragment_lines =
      kernel.graph_fragment.empty()
          ? 0
          : 1 + std::count(kernel.graph_fragment.begin(), kernel.graph_fragment.end(), '\n');
  return {{"name", kernel.name},
          {"kind", to_string(kernel.kind)},
          {"size_hints", kernel.size_hints},
          {"signature", signature},
          {"reduction_hint", kernel.reduction_hint},
          {"mutated_arg_names", kernel.mutated_arg_names},
          {"num_load", kernel.num_load},
          {"num_reduction", kernel.num_reduction},
          {"aten_ops", kernel.aten_ops},
          {"source_nodes", kernel.source_nodes},
          {"graph_fragment_lines", fragment_lines},
          {"source_chars", kernel.source.size()},
          {"source_hash", source_hash(kernel.source)},
          {"line", kernel.line}};
}

nlohmann::json buffer_json(const Buffer& buffer) {
  return {{"name", buffer.name},
          {"shape", buffer.shape},
          {"stride", buffer.stride},
          {"dtype", buffer.dtype},
          {"device", buffer.device},
          {"is_graph_input", buffer.is_graph_input},
          {"shape_known", buffer.shape_known},
          {"line", buffer.line}};
}

// Empty fields of a step are left out: a step has few of them and the goldens stay readable.
nlohmann::json step_json(const Step& step) {
  nlohmann::json out = {{"kind", to_string(step.kind)},
                        {"line", step.line},
                        {"end_line", step.end_line},
                        {"target", step.target}};
  const auto put = [&out](const char* key, const std::vector<std::string>& values) {
    if (!values.empty()) out[key] = values;
  };
  put("args", step.args);
  put("defines", step.defines);
  put("reads", step.reads);
  put("writes", step.writes);
  put("aten_ops", step.aten_ops);
  if (!step.alias_of.empty()) out["alias_of"] = step.alias_of;
  return out;
}

}  // namespace

const TritonKernel* OutputCode::kernel(const std::string& name) const {
  for (const TritonKernel& k : kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

const Buffer* OutputCode::buffer(const std::string& name) const {
  for (const Buffer& b : buffers) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

OutputCode parse_output_code(const std::string& text) {
  detail::ModuleLines module;
  module.text = text;
  module.lines = detail::split_lines(text);
  module.in_string = detail::lines_in_triple_quotes(module.lines);
  OutputCode code;
  std::size_t def_index = 0;
  if (!find_call(module, def_index, code.call_style)) {
    throw Error("kernelopt.parse",
                "the output code has no `call` function (neither `def call(args):` nor "
                "`class Runner` with `def call(self, args):`)");
  }
  code.call_line = static_cast<int>(def_index) + 1;
  code.kernels = detail::parse_kernels(module);
  detail::parse_call(module, def_index, code);
  detail::read_example_inputs(module, def_index, code);
  return code;
}

std::string to_string(KernelKind kind) {
  switch (kind) {
    case KernelKind::kPointwise:
      return "pointwise";
    case KernelKind::kReduction:
      return "reduction";
    case KernelKind::kPersistentReduction:
      return "persistent_reduction";
    case KernelKind::kTemplate:
      return "template";
    case KernelKind::kSplitScan:
      return "split_scan";
    case KernelKind::kForeach:
      return "foreach";
    case KernelKind::kUser:
      return "user";
    case KernelKind::kCooperativeReduction:
      return "cooperative_reduction";
    case KernelKind::kOther:
      return "other";
  }
  return "other";
}

bool is_launch(StepKind kind) {
  return kind == StepKind::kTritonLaunch || kind == StepKind::kExternCall ||
         kind == StepKind::kAtenFallback;
}

std::string to_string(StepKind kind) {
  switch (kind) {
    case StepKind::kAlloc:
      return "alloc";
    case StepKind::kReinterpret:
      return "reinterpret";
    case StepKind::kReuse:
      return "reuse";
    case StepKind::kItem:
      return "item";
    case StepKind::kDel:
      return "del";
    case StepKind::kTritonLaunch:
      return "triton_launch";
    case StepKind::kExternCall:
      return "extern_call";
    case StepKind::kAtenFallback:
      return "aten_fallback";
    case StepKind::kReturn:
      return "return";
  }
  return "other";
}

nlohmann::json to_json(const OutputCode& code) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const TritonKernel& kernel : code.kernels) {
    kernels.push_back(kernel_json(kernel));
  }
  nlohmann::json buffers = nlohmann::json::array();
  for (const Buffer& buffer : code.buffers) {
    buffers.push_back(buffer_json(buffer));
  }
  nlohmann::json steps = nlohmann::json::array();
  for (const Step& step : code.steps) {
    steps.push_back(step_json(step));
  }
  return {{"call_style", code.call_style},
          {"call_line", code.call_line},
          {"kernels", kernels},
          {"buffers", buffers},
          {"graph_inputs", code.graph_inputs},
          {"steps", steps},
          {"returns", code.returns}};
}

}  // namespace kernelopt::inductor
