// The cross-run cache: fingerprints, recorded verdicts, and cached candidates written again.
#include "kernelopt/engine/reuse.hpp"

#include <cstdlib>
#include <map>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/store/fingerprint.hpp"

namespace kernelopt::engine {

std::optional<store::Cache> open_cache(const VerifyOptions& options, const Progress& progress) {
  if (!options.use_cache) return std::nullopt;
  try {
    const std::string dir =
        options.cache_dir.empty() ? store::Cache::default_dir() : options.cache_dir;
    return store::Cache::open(dir);
  } catch (const Error& e) {
    if (progress) progress(fmt::format("no cache of verified segments: {}", e.what()));
    return std::nullopt;
  }
}

namespace {

// A probed tensor's spec; a non-tensor argument (a size) has no shape and keeps its type.
store::TensorSpec spec_of(const nlohmann::json& info) {
  store::TensorSpec spec;
  if (!info.is_object() || !info.contains("shape")) {
    spec.dtype = info.is_object() ? info.value("type", info.dump()) : info.dump();
    return spec;
  }
  spec.shape = info.at("shape").get<std::vector<std::int64_t>>();
  spec.stride = info.value("stride", std::vector<std::int64_t>{});
  spec.dtype = info.value("dtype", "");
  return spec;
}

std::vector<store::TensorSpec> specs(const std::vector<std::string>& names,
                                     const nlohmann::json& probed) {
  std::vector<store::TensorSpec> out;
  out.reserve(names.size());
  for (const auto& name : names) {
    out.push_back(probed.is_object() && probed.contains(name) ? spec_of(probed.at(name))
                                                              : store::TensorSpec{});
  }
  return out;
}

// "9.0" -> (9, 0).
std::pair<int, int> capability(const std::string& text) {
  const auto dot = text.find('.');
  if (dot == std::string::npos) return {0, 0};
  return {std::atoi(text.substr(0, dot).c_str()), std::atoi(text.substr(dot + 1).c_str())};
}

}  // namespace

std::string segment_fingerprint(const Graphs& graphs,
                                const gate::Candidate& candidate,
                                const nlohmann::json& env) {
  const analysis::Segment& segment =
      graphs.map.segments[static_cast<std::size_t>(candidate.segment)];
  const inductor::OutputCode& code = graphs.runs[static_cast<std::size_t>(segment.graph)].code;
  store::SegmentKey key;
  for (const int launch : segment.launches) {
    const std::string& name = graphs.map.launches[static_cast<std::size_t>(launch)].name;
    for (const auto& kernel : code.kernels) {
      if (kernel.name == name) key.kernel_sources.push_back(kernel.source);
    }
  }
  const nlohmann::json& tensors = candidate.tensors;
  key.inputs = specs(segment.inputs, tensors.is_object() ? tensors.value("inputs", nlohmann::json())
                                                         : nlohmann::json());
  key.outputs =
      specs(segment.outputs,
            tensors.is_object() ? tensors.value("outputs", nlohmann::json()) : nlohmann::json());
  key.gpu_name = env.value("gpu", "");
  std::tie(key.cc_major, key.cc_minor) = capability(env.value("compute_capability", ""));
  key.torch_version = env.value("torch", "");
  key.triton_version = env.value("triton", "");
  return store::fingerprint(key);
}

nlohmann::json interface_of(const analysis::Segment& segment) {
  return {{"inputs", segment.inputs}, {"outputs", segment.outputs}};
}

namespace {

// {"this segment's name": "the recorded name"} by position; empty when every name is the same.
std::map<std::string, std::string> renamed(const std::vector<std::string>& now,
                                           const std::vector<std::string>& recorded) {
  std::map<std::string, std::string> out;
  bool differs = false;
  for (std::size_t i = 0; i < now.size() && i < recorded.size(); ++i) {
    out[now[i]] = recorded[i];
    differs = differs || now[i] != recorded[i];
  }
  return differs ? out : std::map<std::string, std::string>{};
}

std::string python_dict(const std::map<std::string, std::string>& names) {
  std::string text = "{";
  for (const auto& [from, to] : names) {
    text += fmt::format(R"({}"{}": "{}")", text.size() > 1 ? ", " : "", from, to);
  }
  return text + "}";
}

}  // namespace

std::string reused_source(const store::VerifiedSegment& cached, const analysis::Segment& segment) {
  const nlohmann::json face = cached.gates.value("interface", nlohmann::json::object());
  const auto inputs = renamed(segment.inputs, face.value("inputs", std::vector<std::string>{}));
  const auto outputs = renamed(segment.outputs, face.value("outputs", std::vector<std::string>{}));
  if (inputs.empty() && outputs.empty()) return cached.source;
  return fmt::format(
      "{}\n\n# Reused from the cache of verified segments: this segment's buffers under the names\n"
      "# the candidate was written for (by position).\n"
      "_cached_run = run\n"
      "_INPUTS = {}\n"
      "_OUTPUTS = {}\n\n\n"
      "def run(inputs, outputs):\n"
      "    return _cached_run({{_INPUTS.get(k, k): v for k, v in inputs.items()}},\n"
      "                       {{_OUTPUTS.get(k, k): v for k, v in outputs.items()}})\n",
      cached.source, python_dict(inputs), python_dict(outputs));
}

}  // namespace kernelopt::engine
