#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"

namespace kernelopt::analysis {

namespace {

template <typename T>
nlohmann::json opt(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

std::string to_string(LaunchKind kind) {
  switch (kind) {
    case LaunchKind::kTriton:
      return "triton";
    case LaunchKind::kExtern:
      return "extern";
    case LaunchKind::kAten:
      return "aten";
  }
  return "unknown";
}

std::string to_string(ProblemClass cls) {
  switch (cls) {
    case ProblemClass::kNoTriton:
      return "no_triton_kernel";
    case ProblemClass::kVendorDominated:
      return "vendor_dominated";
    case ProblemClass::kOptimizable:
      return "optimizable";
  }
  return "unknown";
}

nlohmann::json to_json(const DispatchMap& map) {
  nlohmann::json launches = nlohmann::json::array();
  for (const Launch& l : map.launches) {
    launches.push_back({{"graph", l.graph},
                        {"step", l.step},
                        {"dispatch", to_string(l.kind)},
                        {"kind", l.kernel_kind},
                        {"name", l.name},
                        {"aten_ops", l.aten_ops},
                        {"time_ms", l.time_ms},
                        {"share", l.share},
                        {"bytes", opt(l.bytes)},
                        {"floor_ms", opt(l.floor_ms)},
                        {"headroom", opt(l.headroom)},
                        {"reads", l.reads},
                        {"writes", l.writes}});
    if (l.compute_floor_ms) launches.back()["compute_floor_ms"] = *l.compute_floor_ms;
    if (!l.kernels.empty()) {
      nlohmann::json ran = nlohmann::json::array();
      for (const RanKernel& k : l.kernels) {
        ran.push_back({{"name", k.name}, {"ms", k.ms}});
      }
      launches.back()["kernels"] = ran;
    }
  }
  nlohmann::json segments = nlohmann::json::array();
  for (const Segment& s : map.segments) {
    segments.push_back({{"id", s.id},
                        {"graph", s.graph},
                        {"launches", s.launches},
                        {"inputs", s.inputs},
                        {"outputs", s.outputs},
                        {"time_ms", s.time_ms},
                        {"share", s.share},
                        {"bytes", opt(s.bytes)},
                        {"floor_ms", opt(s.floor_ms)},
                        {"headroom", opt(s.headroom)}});
    if (s.extern_call) segments.back()["extern_call"] = true;
    if (s.compute_floor_ms) segments.back()["compute_floor_ms"] = *s.compute_floor_ms;
    if (s.reread_bytes) {  // the floor is the two-pass one
      segments.back()["reread_bytes"] = *s.reread_bytes;
      segments.back()["floor_passes"] = 2;
    }
  }
  nlohmann::json doc = {{"launches", launches},
                        {"segments", segments},
                        {"launch_sum_ms", map.total_ms},
                        {"outside_graphs_ms", map.outside_ms},
                        {"triton_ms", map.triton_ms},
                        {"triton_share", map.triton_share},
                        {"class", to_string(map.problem_class)}};
  if (map.split_launches) doc["split_launches"] = true;  // --split-segments: a launch each
  if (!map.dispatch_aware) {
    doc["dispatch_aware"] = false;  // --no-dispatch-aware: the class counts replaceable externs
    doc["replaceable_ms"] = map.replaceable_ms;
  }
  return doc;
}

bool compute_floor_holds(const nlohmann::json& doc) {
  const auto floor = doc.find("floor_ms");
  const auto compute = doc.find("compute_floor_ms");
  return floor != doc.end() && compute != doc.end() && floor->is_number() && compute->is_number() &&
         compute->get<double>() >= floor->get<double>();
}

}  // namespace kernelopt::analysis
