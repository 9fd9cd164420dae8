// The Triton kernel blocks of an output-code module: `NAME = async_compile.triton('NAME', '''
// source ''', device_str='cuda')`, the comments above each block, and the heuristics decorator
// inside the source (kind, size hints, signature, reduction hint, inductor meta).
#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "kernelopt/inductor/detail/parsers.hpp"
#include "kernelopt/inductor/detail/pytext.hpp"

namespace kernelopt::inductor::detail {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kTritonCall = "async_compile.triton(";

KernelKind kind_of_decorator(std::string_view name) {
  if (name == "pointwise") return KernelKind::kPointwise;
  if (name == "reduction") return KernelKind::kReduction;
  if (name == "persistent_reduction") return KernelKind::kPersistentReduction;
  if (name == "template") return KernelKind::kTemplate;
  if (name == "split_scan") return KernelKind::kSplitScan;
  if (name == "foreach") return KernelKind::kForeach;
  if (name == "user_autotune") return KernelKind::kUser;
  if (name == "cooperative_reduction") return KernelKind::kCooperativeReduction;
  return KernelKind::kOther;  // anything newer: kept, not understood
}

bool is_reduction_kind(KernelKind kind) {
  return kind == KernelKind::kReduction || kind == KernelKind::kPersistentReduction ||
         kind == KernelKind::kSplitScan || kind == KernelKind::kCooperativeReduction;
}

// The text inside the first "[...]" after `marker` in `text`, or nullopt-like empty + false.
bool bracket_after(std::string_view text, std::string_view marker, std::string& out) {
  const std::size_t at = text.find(marker);
  if (at == std::string_view::npos) return false;
  const std::size_t open = text.find('[', at + marker.size());
  if (open == std::string_view::npos) return false;
  const std::size_t close = find_closing(text, open);
  if (close == std::string_view::npos) return false;
  out = std::string(trim(text.substr(open + 1, close - open - 1)));
  return true;
}

// Reads the comment block directly above the kernel's line: source nodes, ATen ops and the
// graph fragment. Blank lines between the comments and the block are allowed (older torch).
void read_comments(const ModuleLines& module, std::size_t index, TritonKernel& kernel) {
  std::size_t first = index;
  while (first > 0 && !module.in_string[first - 1]) {
    const std::string_view above = trim(module.lines[first - 1]);
    if (!above.empty() && above[0] != '#') break;
    --first;
  }
  bool in_fragment = false;
  for (std::size_t i = first; i < index; ++i) {
    const std::string_view line = module.lines[i];
    if (line.empty() || line[0] != '#') continue;
    if (in_fragment && line.substr(0, 3) == "#  ") {
      if (!kernel.graph_fragment.empty()) kernel.graph_fragment += '\n';
      kernel.graph_fragment += trim(line.substr(1));
      continue;
    }
    in_fragment = trim(line.substr(1)) == "Graph fragment:";
    std::string nodes;
    if (bracket_after(line, "Source Nodes:", nodes)) kernel.source_nodes = nodes;
    if (line.find("Original ATen:") != std::string_view::npos) {
      kernel.aten_ops = original_aten(line);
    }
  }
}

// Parameter names of the first `def NAME(...)` at or after `from`, annotations dropped.
std::vector<std::string> def_params(std::string_view source, std::size_t from) {
  std::vector<std::string> names;
  const std::size_t def = source.find("def ", from);
  const std::size_t open = def == std::string_view::npos ? def : source.find('(', def);
  if (open == std::string_view::npos) return names;
  const std::size_t close = find_closing(source, open);
  if (close == std::string_view::npos) return names;
  for (const std::string& param : split_top_level(source.substr(open + 1, close - open - 1))) {
    std::string_view name = param;
    name = name.substr(0, name.find(':'));
    name = name.substr(0, name.find('='));
    names.emplace_back(trim(name));
  }
  return names;
}

void read_size_hints(const Json& hints, TritonKernel& kernel) {
  if (hints.is_object()) {
    for (const auto& [key, value] : hints.items()) {
      if (value.is_number_integer()) {
        kernel.size_hints[key == "r" ? "r0_" : key] = value.get<int64_t>();
      }
    }
    return;
  }
  if (!hints.is_array()) return;
  // Old torch wrote a list ordered like its range trees, "z", "y", "x" then "r".
  std::vector<std::string> keys = {"z", "y", "x"};
  std::size_t tiles = hints.size();
  if (is_reduction_kind(kernel.kind) && tiles > 0) --tiles;
  for (std::size_t i = 0; i < hints.size(); ++i) {
    if (!hints[i].is_number_integer()) continue;
    const std::string key = i < tiles ? keys[keys.size() - tiles + i] : "r0_";
    if (tiles <= keys.size()) kernel.size_hints[key] = hints[i].get<int64_t>();
  }
}

void read_signature(const Json& signature,
                    const std::vector<std::string>& params,
                    TritonKernel& kernel) {
  if (!signature.is_object()) return;
  for (const auto& [key, value] : signature.items()) {
    SignatureArg arg;
    arg.type = value.is_string() ? value.get<std::string>() : value.dump();
    const bool numeric = !key.empty() && key.find_first_not_of("0123456789") == std::string::npos;
    if (numeric) {
      std::size_t position = 0;
      std::from_chars(key.data(), key.data() + key.size(), position);
      arg.name = position < params.size() ? params[position] : "arg" + key;
    } else {
      arg.name = key;
    }
    kernel.signature.push_back(arg);
  }
}

std::string hint_name(const Json& value) {
  if (!value.is_string()) return {};
  const std::string text = value.get<std::string>();
  const std::size_t dot = text.rfind('.');
  return dot == std::string::npos ? text : text.substr(dot + 1);
}

// Fields of a meta dict (triton_meta, inductor_meta or old torch's `meta`).
void read_meta(const Json& meta, const std::vector<std::string>& params, TritonKernel& kernel) {
  if (!meta.is_object()) return;
  if (meta.contains("signature")) read_signature(meta["signature"], params, kernel);
  if (meta.contains("mutated_arg_names") && meta["mutated_arg_names"].is_array()) {
    kernel.mutated_arg_names.clear();
    for (const Json& name : meta["mutated_arg_names"]) {
      if (name.is_string()) kernel.mutated_arg_names.push_back(name.get<std::string>());
    }
  }
  if (meta.contains("num_load") && meta["num_load"].is_number_integer()) {
    kernel.num_load = meta["num_load"].get<int64_t>();
  }
  if (meta.contains("num_reduction") && meta["num_reduction"].is_number_integer()) {
    kernel.num_reduction = meta["num_reduction"].get<int64_t>();
  }
  if (kernel.reduction_hint.empty() && meta.contains("reduction_hint")) {
    kernel.reduction_hint = hint_name(meta["reduction_hint"]);
  }
}

// Offset of the `@triton.jit` that decorates the kernel itself: the last one before
// `def NAME(` (helpers such as `_triton_helper_fn_add0` of a scan come first, each with its own
// `@triton.jit`), or the last one in the source when no def has the kernel's name (user kernels).
std::size_t kernel_jit(std::string_view source, const std::string& name) {
  const std::string def = "\ndef " + name + "(";
  const std::size_t at = source.find(def);
  const std::size_t limit = at == std::string_view::npos ? std::string_view::npos : at;
  const std::size_t jit = source.rfind("@triton.jit", limit);
  return jit == std::string_view::npos ? source.size() : jit;
}

// Finds the heuristics decorator that precedes the kernel's `@triton.jit` and reads its
// arguments. Only decorators after the previous def (a helper's) count.
void read_decorator(TritonKernel& kernel) {
  const std::string_view source = kernel.source;
  const std::size_t jit = kernel_jit(source, kernel.name);
  const std::size_t previous_def = source.rfind("\ndef ", jit);
  std::size_t at = std::string_view::npos;
  const std::size_t from = previous_def == std::string_view::npos ? 0 : previous_def + 1;
  for (std::size_t pos = source.find('@', from); pos < jit; pos = source.find('@', pos + 1)) {
    const bool line_start = pos == 0 || source[pos - 1] == '\n';
    const std::size_t open = source.find('(', pos);
    const std::size_t eol = source.find('\n', pos);
    if (line_start && open != std::string_view::npos && open < eol) at = pos;
  }
  if (at == std::string_view::npos) return;
  const std::size_t open = source.find('(', at);
  const std::string_view dotted = trim(source.substr(at + 1, open - at - 1));
  const std::size_t dot = dotted.rfind('.');
  kernel.kind = kind_of_decorator(dot == std::string_view::npos ? dotted : dotted.substr(dot + 1));
  const std::size_t close = find_closing(source, open);
  if (close == std::string_view::npos) return;
  const std::vector<std::string> params = def_params(source, jit);
  Json size_hints;
  for (const std::string& arg : split_top_level(source.substr(open + 1, close - open - 1))) {
    const auto [key, value] = split_keyword(arg);
    if (key == "size_hints") size_hints = parse_literal(value);
    if (key == "reduction_hint") kernel.reduction_hint = hint_name(Json(value));
    if (key == "triton_meta" || key == "inductor_meta" || key == "meta") {
      read_meta(parse_literal(value), params, kernel);
    }
    if (key == "mutated_arg_names") read_meta({{key, parse_literal(value)}}, params, kernel);
  }
  read_size_hints(size_hints, kernel);  // after the kind: list hints map by kind
}

// The kernel whose block starts on line `index`, or false when the line is not one.
bool read_block(const ModuleLines& module, std::size_t index, TritonKernel& kernel) {
  const std::string_view line = module.lines[index];
  const std::size_t eq = line.find('=');
  if (eq == std::string_view::npos || line.empty() || line[0] == ' ') return false;
  const std::string_view name = trim(line.substr(0, eq));
  if (!is_identifier(name) ||
      trim(line.substr(eq + 1)).substr(0, kTritonCall.size()) != kTritonCall) {
    return false;
  }
  const auto offset = static_cast<std::size_t>(line.data() - module.text.data());
  const std::size_t single = module.text.find("'''", offset);
  const std::size_t dbl = module.text.find(R"(""")", offset);
  const std::size_t open = std::min(single, dbl);
  if (open == std::string_view::npos) return false;
  const std::string_view quote = open == single ? "'''" : R"(""")";
  const std::size_t close = module.text.find(quote, open + 3);
  if (close == std::string_view::npos) return false;
  kernel.name = name;
  kernel.source = module.text.substr(open + 3, close - open - 3);
  kernel.line = static_cast<int>(index) + 1;
  return true;
}

}  // namespace

std::vector<std::string> original_aten(std::string_view comment) {
  std::string inside;
  if (!bracket_after(comment, "Original ATen:", inside)) return {};
  return split_top_level(inside);
}

std::vector<TritonKernel> parse_kernels(const ModuleLines& module) {
  std::vector<TritonKernel> kernels;
  for (std::size_t i = 0; i < module.lines.size(); ++i) {
    if (module.in_string[i]) continue;
    TritonKernel kernel;
    if (!read_block(module, i, kernel)) continue;
    read_comments(module, i, kernel);
    read_decorator(kernel);
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

}  // namespace kernelopt::inductor::detail
