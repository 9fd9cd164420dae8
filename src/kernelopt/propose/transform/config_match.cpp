// The config proposer: one of Inductor's own kernels, unchanged, relaunched with other
// launch settings (XBLOCK, YBLOCK, R0_BLOCK, num_warps, num_stages) than the ones its autotuner
// chose. Its candidate file holds the kernel's source without the heuristics decorator, so the
// kernel is a plain @triton.jit function the candidate launches on the segment's tensors.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/inductor/detail/pytext.hpp"
#include "kernelopt/propose/transform/buffer_names.hpp"
#include "kernelopt/propose/transform/config.hpp"
#include "kernelopt/propose/transform/fuse.hpp"
#include "kernelopt/propose/transform/relaunch.hpp"
#include "kernelopt/propose/transform/retile.hpp"
#include "kernelopt/propose/transform/split.hpp"

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

std::int64_t next_power_of_two(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n) {
    p *= 2;
  }
  return p;
}

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

void set_launch_potentials(std::vector<Match>& matches,
                           const analysis::Segment& segment,
                           const analysis::DispatchMap& map,
                           const nlohmann::json& timed_launches) {
  for (auto& m : matches) {
    if (!m.params.contains("launches")) continue;
    // Each launch of the match is the segment's next launch of the same kernel (fuse drops one).
    std::size_t next = 0;
    for (auto& launch : m.params.at("launches")) {
      const std::string kernel = launch.value("kernel", "");
      while (next < segment.launches.size() &&
             map.launches[static_cast<std::size_t>(segment.launches[next])].name != kernel) {
        ++next;
      }
      if (next == segment.launches.size()) break;
      const auto index = static_cast<std::size_t>(segment.launches[next++]);
      if (index >= timed_launches.size()) continue;
      const auto& timed = timed_launches[index];
      if (timed.value("name", "") != map.launches[index].name || !timed.contains("time_ms")) {
        continue;
      }
      // Its time above its floor; a template whose floor is only its bytes (a product in TF32
      // or half precision: no compute floor), or a launch without a floor, counts 5% of its time.
      const double time = timed.at("time_ms").get<double>();
      const auto& floor = timed.value("floor_ms", nlohmann::json());
      const bool floor_holds =
          launch.value("kind", "") != "template" || timed.contains("compute_floor_ms");
      launch["potential_ms"] = floor.is_number() && floor_holds
                                   ? std::max(0.0, time - floor.get<double>())
                                   : 0.05 * time;
    }
  }
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

std::optional<Match> match_config(const inductor::OutputCode& code,
                                  const analysis::DispatchMap& map,
                                  const analysis::Segment& segment) {
  if (segment.extern_call || segment.launches.empty()) return std::nullopt;
  if (segment.launches.size() > 1) {
    // Every launch of the segment relaunched as fuse relaunches them (buffers that live within
    // the segment allocated by the candidate; a template exactly as Inductor launched it), each
    // with settings of its own: a reduction among others gets other tiles too. (On the H200 this
    // found nothing measurably faster on L2/19, 21 and 23, whose statistics are compute-bound;
    // the rewrite's shifted sums relaunch their segments this way.)
    auto launches = segment_relaunches(code, map, segment);
    if (!launches) return std::nullopt;
    std::vector<std::string> names;
    bool tunable = false;
    for (const auto& launch : *launches) {
      tunable = tunable || launch.at("kind") != "template";
      names.push_back(launch.at("kernel").get<std::string>());
    }
    if (!tunable) return std::nullopt;
    const std::string why = fmt::format(
        "Inductor's {} kernels of the segment relaunched with other settings, each its own ({})",
        names.size(), fmt::join(names, ", "));
    return Match{"config", {{"kind", "segment"}, {"launches", *launches}}, why};
  }
  auto params = relaunch_params(code, map, segment, segment.launches.front(), false);
  if (!params) return std::nullopt;
  const std::string why =
      fmt::format("Inductor's {} kernel {} relaunched with other settings",
                  params->at("kind").get<std::string>(), params->at("kernel").get<std::string>());
  return Match{"config", std::move(*params), why};
}

bool y_grid_fits(const nlohmann::json& params, std::int64_t yblock) {
  if (!params.contains("numels") || !params.at("numels").contains("ynumel")) return true;
  const auto y = params.at("numels").at("ynumel").get<std::int64_t>();
  const auto block = std::max<std::int64_t>(1, yblock);
  return (y + block - 1) / block <= 65535;
}

std::int64_t smallest_yblock(const nlohmann::json& params) {
  std::int64_t block = 1;
  while (!y_grid_fits(params, block)) {
    block *= 2;
  }
  return block;
}

bool config_fits(const Match& match, const nlohmann::json& settings) {
  if (!retile_fits(match.params, settings)) return false;
  if (settings.contains("YBLOCK") &&
      !y_grid_fits(match.params, settings.at("YBLOCK").get<std::int64_t>())) {
    return false;
  }
  if (!match.params.contains("divides")) return true;
  for (const auto& [knob, size] : match.params.at("divides").items()) {
    if (!settings.contains(knob)) continue;
    const auto block = settings.at(knob).get<std::int64_t>();
    if (block <= 0 || size.get<std::int64_t>() % block != 0) return false;
  }
  return true;
}

std::vector<nlohmann::json> config_settings(const Match& match) {
  const auto& p = match.params;
  if (p.contains("launches")) return fuse_settings(match);  // a whole segment, per launch
  const auto has = [&](const char* name) {
    const auto& list = p.at("constexprs");
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  std::vector<nlohmann::json> out;
  const std::string kind = p.at("kind").get<std::string>();
  if (kind == "template") return {p.at("inductor")};  // launched as Inductor launched it
  // A literal size of the kernel (0 when unknown): no block goes past it rounded up to a power of
  // two, and a reduction block cut to a short row hands its elements to more rows a program.
  const auto numel = [&](const char* key) -> std::int64_t {
    if (!p.contains("numels") || !p.at("numels").contains(key)) return 0;
    const auto& v = p.at("numels").at(key);
    return v.is_number_integer() ? v.get<std::int64_t>() : 0;
  };
  const auto fit = [](std::int64_t block, std::int64_t size) {
    return size > 0 ? std::min(block, next_power_of_two(size)) : block;
  };
  const auto add = [&](std::int64_t x, std::int64_t y, std::int64_t r, int warps) {
    if (const std::int64_t row = fit(r, numel("r0_numel")); r > 0 && row < r) {
      x *= r / row;
      r = row;
    }
    x = fit(x, numel("xnumel"));
    y = fit(y, numel("ynumel"));
    nlohmann::json s = {{"num_warps", warps}, {"num_stages", 1}};
    if (has("XBLOCK")) s["XBLOCK"] = x;
    if (has("YBLOCK")) s["YBLOCK"] = std::max(y, smallest_yblock(p));  // CUDA's 65535 y programs
    if (has("R0_BLOCK") && !p.contains("fixed")) s["R0_BLOCK"] = r;
    out.push_back(std::move(s));
  };
  if (kind == "pointwise" && p.at("grid") == 2) {
    add(64, 64, 0, 4);
    add(128, 32, 0, 4);
    add(32, 128, 8, 8);
  } else if (kind == "pointwise") {
    add(1024, 0, 0, 4);
    add(512, 0, 0, 4);
    add(2048, 0, 0, 8);
  } else if (kind == "reduction") {
    add(1, 0, 2048, 8);
    add(8, 0, 512, 8);
    add(64, 0, 64, 4);
  } else {  // persistent: rows per program
    add(1, 0, 0, 4);
    add(8, 0, 0, 8);
    add(32, 0, 0, 8);
  }
  // Inductor's own choice first, when the capture read it: the search starts where the baseline
  // is and moves from there.
  if (p.contains("inductor")) out.insert(out.begin(), p.at("inductor"));
  // A block that must divide its size halves until it does; settings that name no knob (a
  // kernel without XBLOCK) collapse into one per warp count.
  std::vector<nlohmann::json> unique;
  for (auto& s : out) {
    for (const auto& [knob, size] : p.at("divides").items()) {
      if (!s.contains(knob)) continue;
      std::int64_t block = s.at(knob).get<std::int64_t>();
      while (block > 1 && size.get<std::int64_t>() % block != 0) {
        block /= 2;
      }
      s[knob] = block;
    }
    if (std::find(unique.begin(), unique.end(), s) == unique.end()) unique.push_back(std::move(s));
  }
  return unique;
}

std::vector<std::string> bind_args(const nlohmann::json& p,
                                   std::map<std::string, std::string>& tensors,
                                   std::string& body) {
  std::vector<std::string> call_args;
  for (const auto& arg : p.at("args")) {
    if (arg.contains("literal")) {
      call_args.push_back(std::to_string(arg.at("literal").get<std::int64_t>()));
      continue;
    }
    const std::string root = arg.at("root").get<std::string>();
    if (const auto bound = tensors.find(root); bound != tensors.end()) {
      call_args.push_back(bound->second);  // a buffer an earlier launch already bound
      continue;
    }
    const std::string var = fmt::format("_t{}", tensors.size());
    tensors[root] = var;
    if (arg.at("from") == "internal") {
      // A Python tuple: "()" for a 0-dim buffer (a whole-tensor norm's statistic), "(n,)" else.
      const auto tuple = [](const std::vector<std::string>& items) {
        return items.empty() ? std::string("()") : fmt::format("({},)", fmt::join(items, ", "));
      };
      body += fmt::format("    {} = torch.empty_strided({}, {}, dtype={}, device=_device)\n", var,
                          tuple(arg.at("shape").get<std::vector<std::string>>()),
                          tuple(arg.at("stride").get<std::vector<std::string>>()),
                          arg.at("dtype").get<std::string>());
    } else {
      body += fmt::format("    {} = {}[\"{}\"]\n", var, arg.at("from").get<std::string>(),
                          arg.at("root").get<std::string>());
    }
    call_args.push_back(var);
  }
  return call_args;
}

std::string launch_text(const nlohmann::json& p,
                        const nlohmann::json& settings,
                        const std::string& prefix,
                        std::map<std::string, std::string>& tensors,
                        std::string& body) {
  if (p.contains("split_reduction")) return split_launch_text(p, settings, prefix, tensors, body);
  const std::vector<std::string> call_args = bind_args(p, tensors, body);
  const auto value = [&](const std::string& name, std::int64_t fallback) {
    if (p.contains("fixed") && p.at("fixed").contains(name)) {
      return p.at("fixed").at(name).get<std::int64_t>();
    }
    return settings.value(prefix + name, fallback);
  };
  std::vector<std::string> keywords;
  for (const auto& name : p.at("constexprs")) {
    const std::string key = name.get<std::string>();
    keywords.push_back(fmt::format("{}={}", key, value(key, 1)));
  }
  keywords.push_back(fmt::format("num_warps={}", settings.value(prefix + "num_warps", 4)));
  keywords.push_back(fmt::format("num_stages={}", settings.value(prefix + "num_stages", 1)));
  if (p.at("grid") == "fixed") {  // a template: Inductor's own grid
    const auto grid = p.at("fixed_grid").get<std::vector<std::int64_t>>();
    return fmt::format("    {}[({})]({}, {})\n", p.at("kernel").get<std::string>(),
                       fmt::join(grid, ", "), fmt::join(call_args, ", "),
                       fmt::join(keywords, ", "));
  }
  const auto& numels = p.at("numels");
  const bool has_x = std::find(p.at("constexprs").begin(), p.at("constexprs").end(), "XBLOCK") !=
                     p.at("constexprs").end();
  const std::string x_programs =
      has_x ? fmt::format("triton.cdiv({}, {})", numels.at("xnumel").get<std::int64_t>(),
                          value("XBLOCK", 1))
            : std::to_string(numels.at("xnumel").get<std::int64_t>());
  const std::string y_programs =
      p.at("grid") == 2 ? fmt::format("triton.cdiv({}, {})",
                                      numels.at("ynumel").get<std::int64_t>(), value("YBLOCK", 1))
                        : "1";
  return fmt::format("    {}[({}, {}, 1)]({}, {})\n", p.at("kernel").get<std::string>(), x_programs,
                     y_programs, fmt::join(call_args, ", "), fmt::join(keywords, ", "));
}

std::string config_source(const Match& match, int segment, const nlohmann::json& settings) {
  const auto& p = match.params;
  if (p.contains("launches")) return fuse_source(match, segment, settings);
  std::string body;
  std::map<std::string, std::string> tensors;
  const std::string launch = launch_text(p, settings, "", tensors, body);
  return fmt::format(
      "\"\"\"Segment {segment}: {why}.\n\nWritten by kernelopt's {proposer} proposer: the "
      "kernel's source as {how}, without its\nautotuning decorator, launched with the settings "
      "below.\n\"\"\"\n\n"
      "{source}\n\n\n"
      "def run(inputs, outputs):\n"
      "{body}{launch}",
      fmt::arg("segment", segment), fmt::arg("why", match.why), fmt::arg("proposer", match.recipe),
      fmt::arg("how", match.recipe == "rewrite" ? "Inductor wrote it and this proposer rewrote it"
                                                : "Inductor wrote it"),
      fmt::arg("source", p.at("source").get<std::string>()), fmt::arg("body", body),
      fmt::arg("launch", launch));
}

}  // namespace kernelopt::propose
