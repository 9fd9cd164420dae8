// What the agents see of a segment: the output code's side (kernels, ATen ops, launches, buffers
// as written), and the engine's measured side merged in later (add_llm_context).
#include <algorithm>

#include "kernelopt/propose/llm.hpp"
#include "kernelopt/propose/registry.hpp"

namespace kernelopt::propose {

namespace {

nlohmann::json buffer_of(const inductor::OutputCode& code, const std::string& name) {
  const inductor::Buffer* b = code.buffer(name);
  if (b == nullptr) return {{"shape", nullptr}, {"stride", nullptr}, {"dtype", nullptr}};
  return {{"shape", b->shape}, {"stride", b->stride}, {"dtype", b->dtype}};
}

}  // namespace

nlohmann::json llm_segment_context(const SegmentView& view) {
  nlohmann::json kernels = nlohmann::json::array();
  std::vector<std::string> aten;
  for (const int index : view.segment.launches) {
    const analysis::Launch& launch = view.map.launches[static_cast<std::size_t>(index)];
    nlohmann::json k = {{"name", launch.name}, {"aten_ops", launch.aten_ops}};
    if (launch.step >= 0 && static_cast<std::size_t>(launch.step) < view.code.steps.size()) {
      k["launch"] = view.code.steps[static_cast<std::size_t>(launch.step)].text;
    }
    if (const inductor::TritonKernel* kernel = view.code.kernel(launch.name)) {
      k["kind"] = inductor::to_string(kernel->kind);
      k["source"] = kernel->source;
      k["graph_fragment"] = kernel->graph_fragment;
    }
    for (const auto& op : launch.aten_ops) {
      if (std::find(aten.begin(), aten.end(), op) == aten.end()) aten.push_back(op);
    }
    kernels.push_back(std::move(k));
  }
  nlohmann::json interface = {{"inputs", nlohmann::json::object()},
                              {"outputs", nlohmann::json::object()}};
  for (const auto& name : view.segment.inputs) {
    interface["inputs"][name] = buffer_of(view.code, name);
  }
  for (const auto& name : view.segment.outputs) {
    interface["outputs"][name] = buffer_of(view.code, name);
  }
  std::vector<std::string> strategies;
  for (const Match& m : view.earlier) {
    strategies.push_back(strategy_of(m) + ": " + m.why);
  }
  // The measured side is added by the engine (add_llm_context); until then it says so.
  return {{"segment", view.segment.id},
          {"problem", ""},
          {"analysis", "(not profiled)"},
          {"roofline", nlohmann::json::object()},
          {"counters", nlohmann::json::object()},
          {"kernels", std::move(kernels)},
          {"aten", std::move(aten)},
          {"interface", std::move(interface)},
          {"strategies", std::move(strategies)}};
}

void add_llm_context(std::vector<Match>& offered, const nlohmann::json& extra) {
  for (Match& m : offered) {
    if (m.recipe == "llm") m.params.update(extra);
  }
}

}  // namespace kernelopt::propose
