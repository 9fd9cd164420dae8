#include "kernelopt/recompose/bindings.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"

namespace kernelopt::recompose {

namespace {

using inductor::StepKind;

// How a name holds its root: 0 the root itself, 1 an identity alias, 2 a view.
struct Binding {
  std::string root;
  int rank = 0;
};

std::string root_of(const std::map<std::string, Binding>& bound, const std::string& name) {
  auto it = bound.find(name);
  return it == bound.end() ? name : it->second.root;
}

void apply(std::map<std::string, Binding>& bound, const inductor::Step& step) {
  switch (step.kind) {
    case StepKind::kDel:
      bound.erase(step.target);
      break;
    case StepKind::kReuse:
      bound[step.target] = {root_of(bound, step.alias_of), 1};
      break;
    case StepKind::kReinterpret:
      bound[step.target] = {root_of(bound, step.alias_of), 2};
      break;
    default:
      for (const auto& name : step.defines) {
        bound[name] = {name, 0};
      }
      break;
  }
}

}  // namespace

std::map<std::string, std::string> live_names(const inductor::OutputCode& code,
                                              int step,
                                              bool after) {
  std::map<std::string, Binding> bound;
  for (const auto& name : code.graph_inputs) {
    bound[name] = {name, 0};
  }
  const int stop = after ? step + 1 : step;
  for (int i = 0; i < stop && i < static_cast<int>(code.steps.size()); ++i) {
    apply(bound, code.steps[i]);
  }
  std::map<std::string, std::pair<int, std::string>> best;  // root -> (rank, name)
  for (const auto& [name, binding] : bound) {
    const int rank = name == binding.root ? 0 : binding.rank;
    auto it = best.find(binding.root);
    if (it == best.end() || rank < it->second.first) best[binding.root] = {rank, name};
  }
  std::map<std::string, std::string> names;
  for (const auto& [root, entry] : best) {
    names[root] = entry.second;
  }
  return names;
}

SegmentInterface segment_interface(const inductor::OutputCode& code,
                                   const analysis::DispatchMap& map,
                                   const analysis::Segment& segment) {
  SegmentInterface face;
  face.segment = segment.id;
  face.graph = segment.graph;
  face.first_step = map.launches[segment.launches.front()].step;
  face.last_step = map.launches[segment.launches.back()].step;
  const auto before = live_names(code, face.first_step, false);
  const auto after = live_names(code, face.last_step, true);
  auto pick = [&](const std::map<std::string, std::string>& live, const std::string& root,
                  const char* where) {
    auto it = live.find(root);
    if (it == live.end()) {
      throw Error("kernelopt.recompose",
                  fmt::format("segment {}: buffer {} has no live name {} the segment", segment.id,
                              root, where));
    }
    return it->second;
  };
  for (const auto& root : segment.inputs) {
    face.inputs[root] = pick(before, root, "before");
  }
  for (const auto& root : segment.outputs) {
    int step = face.last_step;
    if (after.count(root) == 0) {
      for (int index : segment.launches) {
        const auto& writes = code.steps[map.launches[index].step].writes;
        if (std::find(writes.begin(), writes.end(), root) != writes.end()) {
          step = map.launches[index].step;
        }
      }
    }
    face.outputs[root] =
        pick(step == face.last_step ? after : live_names(code, step, true), root, "after");
    face.output_steps[root] = step;
  }
  // Inputs the segment's own kernels write (in place) that nothing reads afterwards.
  for (const auto& root : segment.inputs) {
    if (std::find(segment.outputs.begin(), segment.outputs.end(), root) != segment.outputs.end()) {
      continue;
    }
    for (int index : segment.launches) {
      const auto& writes = code.steps[map.launches[index].step].writes;
      if (std::find(writes.begin(), writes.end(), root) != writes.end()) {
        face.scratch.push_back(root);
        break;
      }
    }
  }
  for (int index : segment.launches) {
    const auto* kernel = code.kernel(code.steps[map.launches[index].step].target);
    // Inductor's metadata names "atomic_add_found" in every kernel: the call itself is looked for
    if (kernel != nullptr && kernel->source.find("tl.atomic_add(") != std::string::npos) {
      face.schedule_dependent = true;
    }
  }
  return face;
}

std::string dict_literal(const std::map<std::string, std::string>& names) {
  std::string out = "{";
  for (const auto& [root, name] : names) {
    if (out.size() > 1) out += ", ";
    out += fmt::format("'{}': {}", root, name);
  }
  return out + "}";
}

}  // namespace kernelopt::recompose
