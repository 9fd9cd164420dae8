// A launch of Inductor's kernel read for relaunching: its kernel without the autotuning decorator,
// its arguments bound to the segment's tensors (or buffers the candidate allocates), its sizes,
// grid and blocks, and the settings Inductor's autotuner chose.
#include "kernelopt/propose/transform/relaunch.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/transform/buffer_names.hpp"
#include "kernelopt/propose/transform/config.hpp"

namespace kernelopt::propose {

namespace {

std::optional<std::int64_t> literal(const std::string& text) {
  if (text.empty() ||
      !std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(c) != 0; })) {
    return std::nullopt;
  }
  return std::stoll(text);
}

}  // namespace

// The kernel's module text without the autotuning decorator (`@triton_heuristics.pointwise(...)`
// up to `@triton.jit`) and without `triton_helpers.set_driver_to_gpu()` (it picks the GPU driver
// when several are active and fails where none is: Triton's interpreter on the CPU), or "" when
// the text is not in that form.
std::string without_heuristics(const std::string& source) {
  const std::size_t start = source.find("@triton_heuristics.");
  const std::size_t jit = source.find("@triton.jit", start == std::string::npos ? 0 : start);
  if (start == std::string::npos || jit == std::string::npos) return "";
  std::string head = source.substr(0, start);
  const std::string driver = "triton_helpers.set_driver_to_gpu()\n";
  if (const std::size_t at = head.find(driver); at != std::string::npos) {
    head.erase(at, driver.size());
  }
  return head + source.substr(jit);
}

namespace {

// `NAME=<int>,` in a template's decorator (`num_warps=4,`), or nullopt.
std::optional<std::int64_t> decorator_int(const std::string& source, const std::string& name) {
  const std::size_t at = source.find("\n" + name + "=");
  if (at == std::string::npos) return std::nullopt;
  const std::size_t from = at + name.size() + 2;
  const std::size_t end = source.find_first_not_of("0123456789", from);
  return literal(source.substr(from, end == std::string::npos ? end : end - from));
}

// A max-autotune Triton template (a matrix product or convolution Inductor generated) launched
// exactly as Inductor launched it: its fixed grid (the launch's last three arguments), its warps
// and stages; its block sizes are constants of its body. Only within a fused segment (fuse
// relaunches a segment's every other launch); config leaves a template alone.
std::optional<nlohmann::json> template_relaunch(const inductor::TritonKernel& kernel,
                                                const std::string& source,
                                                const std::vector<std::string>& positional,
                                                nlohmann::json args) {
  if (kernel.source.find("'grid_type': 'FixedGrid'") == std::string::npos ||
      kernel.source.find("'extra_launcher_args': ['_grid_0', '_grid_1', '_grid_2']") ==
          std::string::npos ||
      positional.size() != kernel.signature.size() + 3) {
    return std::nullopt;
  }
  const auto warps = decorator_int(kernel.source, "num_warps");
  const auto stages = decorator_int(kernel.source, "num_stages");
  if (!warps || !stages) return std::nullopt;
  nlohmann::json grid = nlohmann::json::array();
  for (std::size_t i = kernel.signature.size(); i < positional.size(); ++i) {
    const auto value = literal(positional[i]);
    if (!value || *value <= 0) return std::nullopt;
    grid.push_back(*value);
  }
  return nlohmann::json{{"kernel", kernel.name},
                        {"kind", "template"},
                        {"grid", "fixed"},
                        {"fixed_grid", grid},
                        {"args", std::move(args)},
                        {"numels", nlohmann::json::object()},
                        {"constexprs", nlohmann::json::array()},
                        {"divides", nlohmann::json::object()},
                        {"inductor", {{"num_warps", *warps}, {"num_stages", *stages}}},
                        {"source", source}};
}

// The root buffer a Triton kernel's pointer argument addresses: reused_root's, or for a
// reinterpret of a buffer at offset 0 (`buf5 = reinterpret_tensor(buf4, SIZE, STRIDE, 0)`, as
// Inductor re-strides a fresh buffer's size-1 dimension before a reduction writes it) that
// buffer's root. A kernel receives only the base address and indexes by itself, so both name the
// same argument; a view at another offset does not.
std::optional<std::string> pointer_root(const inductor::OutputCode& code,
                                        int step,
                                        const std::string& name) {
  if (auto root = reused_root(code, step, name)) return root;
  namespace py = inductor::detail;
  for (int s = step - 1; s >= 0; --s) {
    const inductor::Step& st = code.steps[static_cast<std::size_t>(s)];
    if (st.defines.empty() || st.defines.front() != name) continue;
    if (st.kind != inductor::StepKind::kReinterpret) return std::nullopt;
    const std::string call = "reinterpret_tensor(";
    const std::size_t at = st.text.find(call);
    if (at == std::string::npos) return std::nullopt;
    const std::size_t open = at + call.size() - 1;
    const std::size_t close = py::find_closing(st.text, open);
    if (close == std::string::npos) return std::nullopt;
    const auto args =
        py::split_top_level(std::string_view(st.text).substr(open + 1, close - open - 1));
    if (args.size() != 4 || py::trim(args[0]) != st.alias_of || py::trim(args[3]) != "0") {
      return std::nullopt;
    }
    return pointer_root(code, s, st.alias_of);
  }
  return std::nullopt;
}

}  // namespace

std::optional<nlohmann::json> relaunch_params(const inductor::OutputCode& code,
                                              const analysis::DispatchMap& map,
                                              const analysis::Segment& segment,
                                              int launch_index,
                                              bool fused_segment) {
  const analysis::Launch& launch = map.launches[static_cast<std::size_t>(launch_index)];
  const inductor::TritonKernel* kernel = code.kernel(launch.name);
  if (kernel == nullptr) return std::nullopt;
  const std::string kind = launch.kernel_kind;
  const bool is_template = kind == "template" && fused_segment;
  if (kind != "pointwise" && kind != "reduction" && kind != "persistent_reduction" &&
      !is_template) {
    return std::nullopt;
  }
  const std::string source = without_heuristics(kernel->source);
  const bool grid_1d = kernel->source.find("'grid_type': 'Grid1D'") != std::string::npos;
  const bool grid_2d =
      kernel->source.find("'grid_type': 'Grid2D'") != std::string::npos ||
      kernel->source.find("'grid_type': 'Grid2DWithYZOverflow'") != std::string::npos;
  if (source.empty() || (!grid_1d && !grid_2d && !is_template)) return std::nullopt;
  // A 2-D grid indexed by program_id(1) alone, or with Inductor's spill of y programs into z
  // (`(tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK`), which a launch
  // with one z program leaves to program_id(1).
  if (grid_2d && kernel->source.find("yoffset = tl.program_id(1) * YBLOCK") == std::string::npos &&
      kernel->source.find(
          "yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK") ==
          std::string::npos) {
    return std::nullopt;
  }
  if (grid_1d && kernel->source.find("tl.program_id(1)") != std::string::npos) {
    return std::nullopt;
  }
  const inductor::Step& step = code.steps[static_cast<std::size_t>(launch.step)];
  std::vector<std::string> positional;
  for (const auto& arg : step.args) {
    if (arg.find('=') == std::string::npos) positional.push_back(arg);
  }
  nlohmann::json args = nlohmann::json::array();
  nlohmann::json numels = nlohmann::json::object();
  std::vector<std::string> constexprs;
  std::size_t next = 0;
  const auto in_segment = [&](const std::string& root, const std::vector<std::string>& list) {
    return std::find(list.begin(), list.end(), root) != list.end();
  };
  static const std::set<std::string> sizes = {"xnumel", "ynumel", "r0_numel"};
  const auto all_literal = [](const std::vector<std::string>& list) {
    return std::all_of(list.begin(), list.end(),
                       [](const std::string& t) { return literal(t).has_value(); });
  };
  for (const auto& param : kernel->signature) {
    if (param.type == "constexpr" && sizes.count(param.name) == 0) {
      static const std::set<std::string> tunable = {"XBLOCK", "YBLOCK", "R0_BLOCK"};
      if (tunable.count(param.name) == 0) return std::nullopt;
      constexprs.push_back(param.name);
      continue;
    }
    if (next >= positional.size()) return std::nullopt;
    const std::string& arg = positional[next++];
    if (param.is_pointer()) {
      const auto root = identifier(arg) ? pointer_root(code, launch.step, arg) : std::nullopt;
      if (!root) return std::nullopt;
      // An output (in_out pointers too) comes from `outputs`: in the model and in G2 the same
      // tensor as the input of that root.
      if (in_segment(*root, segment.outputs)) {
        args.push_back({{"param", param.name}, {"from", "outputs"}, {"root", *root}});
      } else if (in_segment(*root, segment.inputs)) {
        args.push_back({{"param", param.name}, {"from", "inputs"}, {"root", *root}});
      } else if (const inductor::Buffer* buffer = code.buffer(*root);
                 fused_segment && buffer != nullptr && buffer->shape_known &&
                 !buffer->is_graph_input && !buffer->dtype.empty() && all_literal(buffer->shape) &&
                 all_literal(buffer->stride)) {
        // A buffer that lives within the segment (statistics between two launches): the
        // candidate allocates it as Inductor did.
        args.push_back({{"param", param.name},
                        {"from", "internal"},
                        {"root", *root},
                        {"shape", buffer->shape},
                        {"stride", buffer->stride},
                        {"dtype", buffer->dtype}});
      } else {
        return std::nullopt;  // a buffer the segment neither receives nor returns
      }
      continue;
    }
    const auto value = literal(arg);
    if (!value) return std::nullopt;
    args.push_back({{"param", param.name}, {"literal", *value}});
    if (sizes.count(param.name) != 0) numels[param.name] = *value;
  }
  if (is_template) {
    if (!constexprs.empty()) return std::nullopt;  // a template's blocks are body constants
    return template_relaunch(*kernel, source, positional, std::move(args));
  }
  if (next != positional.size() || !numels.contains("xnumel")) return std::nullopt;
  if (grid_2d && !numels.contains("ynumel")) return std::nullopt;
  const bool has_r0 =
      std::find(constexprs.begin(), constexprs.end(), "R0_BLOCK") != constexprs.end();
  if (has_r0 && !numels.contains("r0_numel")) return std::nullopt;
  nlohmann::json params = {{"kernel", kernel->name}, {"kind", kind},     {"grid", grid_2d ? 2 : 1},
                           {"args", args},           {"numels", numels}, {"constexprs", constexprs},
                           {"source", source}};
  // Inductor drops a dimension's mask when every block it would try divides the size
  // (`xmask = tl.full([XBLOCK], True, tl.int1)`): that block must keep dividing it.
  nlohmann::json divides = nlohmann::json::object();
  for (const auto& [mask, knob, numel] :
       {std::tuple{"xmask = tl.full(", "XBLOCK", "xnumel"},
        std::tuple{"ymask = tl.full(", "YBLOCK", "ynumel"},
        std::tuple{"r0_mask = tl.full(", "R0_BLOCK", "r0_numel"}}) {
    if (kernel->source.find(mask) != std::string::npos && numels.contains(numel)) {
      divides[knob] = numels.at(numel);
    }
  }
  params["divides"] = divides;
  // A persistent reduction holds a whole row: its R0_BLOCK is fixed, not tuned.
  if (kind == "persistent_reduction" && has_r0) {
    params["fixed"] = {{"R0_BLOCK", next_power_of_two(numels.at("r0_numel").get<std::int64_t>())}};
  }
  // The settings Inductor's autotuner chose, when the capture read them: the first to try.
  nlohmann::json inductor = nlohmann::json::object();
  for (const auto& [key, value] : kernel->autotuned.items()) {
    const bool block = std::find(constexprs.begin(), constexprs.end(), key) != constexprs.end();
    if (!value.is_number_integer() || value.get<std::int64_t>() <= 0) continue;
    if ((block && !(params.contains("fixed") && params.at("fixed").contains(key))) ||
        key == "num_warps" || key == "num_stages") {
      inductor[key] = value;
    }
  }
  if (inductor.contains("num_warps")) params["inductor"] = inductor;
  return params;
}

std::optional<std::vector<nlohmann::json>> segment_relaunches(const inductor::OutputCode& code,
                                                              const analysis::DispatchMap& map,
                                                              const analysis::Segment& segment) {
  std::vector<nlohmann::json> out;
  for (const int index : segment.launches) {
    auto params = relaunch_params(code, map, segment, index, true);
    if (!params) return std::nullopt;
    out.push_back(std::move(*params));
  }
  return out;
}

}  // namespace kernelopt::propose
