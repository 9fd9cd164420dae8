#include "kernelopt/analysis/segments.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace kernelopt::analysis {

namespace {

void add_unique(std::vector<std::string>& list, const std::string& name) {
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

bool contains(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// Whether `name` is read by a step after `last_step`, returned, or a graph input.
bool used_later(const inductor::OutputCode& code, int last_step, const std::string& name) {
  if (contains(code.returns, name) || contains(code.graph_inputs, name)) return true;
  for (std::size_t s = last_step + 1; s < code.steps.size(); ++s) {
    if (contains(code.steps[s].reads, name)) return true;
  }
  return false;
}

void fill_buffers(const GraphRun& graph, const DispatchMap& map, Segment& segment) {
  std::set<std::string> written;
  std::vector<std::string> all_written;
  // A buffer allocated inside the segment (after its first launch, before the launch that reads
  // it: an in_out_ptr on a reused allocation) holds nothing from before it: not an input.
  int step = map.launches[segment.launches.front()].step + 1;
  for (int index : segment.launches) {
    const Launch& launch = map.launches[index];
    for (; step < launch.step; ++step) {
      const inductor::Step& statement = graph.code.steps[static_cast<std::size_t>(step)];
      if (statement.kind == inductor::StepKind::kAlloc) {
        written.insert(statement.defines.begin(), statement.defines.end());
      }
    }
    for (const auto& name : launch.reads) {
      if (written.count(name) == 0) add_unique(segment.inputs, name);
    }
    for (const auto& name : launch.writes) {
      written.insert(name);
      add_unique(all_written, name);
    }
  }
  const int last_step = map.launches[segment.launches.back()].step;
  for (const auto& name : all_written) {
    if (used_later(graph.code, last_step, name)) segment.outputs.push_back(name);
  }
}

}  // namespace

std::vector<Segment> find_segments(const std::vector<GraphRun>& graphs,
                                   const DispatchMap& map,
                                   double bandwidth_gbps,
                                   bool split) {
  std::vector<Segment> segments;
  Segment current;
  auto close = [&]() {
    if (current.launches.empty()) return;
    const GraphRun& graph = graphs[current.graph];
    fill_buffers(graph, map, current);
    current.bytes = moved_bytes(graph, current.inputs, current.outputs);
    // A matrix product is bound by its arithmetic: a one-pass memory floor would say nothing.
    if (!current.extern_call) {
      std::vector<inductor::GraphFragment> fragments;
      for (const int index : current.launches) {
        const inductor::TritonKernel* kernel = graph.code.kernel(map.launches[index].name);
        if (kernel != nullptr) {
          fragments.push_back(inductor::parse_graph_fragment(kernel->graph_fragment));
        }
      }
      current.reread_bytes = reread_bytes(fragments);
      auto floor_bytes = current.bytes;
      if (floor_bytes && current.reread_bytes) *floor_bytes += *current.reread_bytes;
      set_floor(floor_bytes, current.time_ms, bandwidth_gbps, current.floor_ms, current.headroom);
      for (const int index : current.launches) {
        const auto& launch_floor = map.launches[index].compute_floor_ms;
        if (launch_floor) {
          current.compute_floor_ms = current.compute_floor_ms.value_or(0) + *launch_floor;
        }
      }
      raise_floor(current.compute_floor_ms, current.time_ms, current.floor_ms, current.headroom);
    }
    current.share = map.whole_ms() > 0 ? current.time_ms / map.whole_ms() : 0;
    current.id = static_cast<int>(segments.size());
    segments.push_back(current);
    current = Segment{};
  };
  for (std::size_t i = 0; i < map.launches.size(); ++i) {
    const Launch& launch = map.launches[i];
    if (!current.launches.empty() && current.graph != launch.graph) close();
    if (!launch.replaceable) {
      close();
      continue;
    }
    if (launch.kind != LaunchKind::kTriton) {  // a replaceable extern call: a segment of its own
      close();
      current.graph = launch.graph;
      current.extern_call = true;
      current.launches.push_back(static_cast<int>(i));
      current.time_ms = launch.time_ms;
      close();
      continue;
    }
    current.graph = launch.graph;
    current.launches.push_back(static_cast<int>(i));
    current.time_ms += launch.time_ms;
    if (split) close();
  }
  close();
  return segments;
}

}  // namespace kernelopt::analysis
