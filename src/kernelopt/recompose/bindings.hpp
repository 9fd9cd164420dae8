// Which Python names hold which buffers at a point of `call`. Inductor renames buffers it reuses
// (`buf4 = buf1; del buf1`) and views them (`buf3 = reinterpret_tensor(buf2, ...)`), so the root
// buffer a segment reads may be reachable only under another name when the segment runs.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/inductor/output_code.hpp"

namespace kernelopt::recompose {

// A segment's interface at its two ends: root buffer -> the Python name that holds it.
struct SegmentInterface {
  int segment = 0;                             // Segment::id
  int graph = 0;                               // its graph
  int first_step = 0;                          // index of its first launch step
  int last_step = 0;                           // index of its last launch step
  std::map<std::string, std::string> inputs;   // root -> live name before the first launch
  std::map<std::string, std::string> outputs;  // root -> live name after the last launch, or
                                               // after the last launch that writes it when the
                                               // segment itself drops its last name (a mutated
                                               // graph input is `del`eted inside the segment)
  std::map<std::string, int> output_steps;     // root -> the step after which it is final
  // Inputs the compiler's segment itself overwrites in place and nothing reads after it (a norm
  // applied in place to a convolution's output that only this segment reads): a candidate may
  // change them too.
  std::vector<std::string> scratch;
  // The compiler's own kernels of the segment add floats atomically (Inductor's scatter and
  // index adds): its result already depends on the order of the adds, so a candidate's may too.
  bool schedule_dependent = false;
};

// The live name of each root just before step `step` (or after it with `after`). Prefers the
// root's own name, then an identity alias (`bufN = bufM`), then a view.
std::map<std::string, std::string> live_names(const inductor::OutputCode& code,
                                              int step,
                                              bool after);

// The interface of a segment of `map` whose graph's parsed code is `code`. Throws
// kernelopt::Error ("kernelopt.recompose") when a root has no live name at an end.
SegmentInterface segment_interface(const inductor::OutputCode& code,
                                   const analysis::DispatchMap& map,
                                   const analysis::Segment& segment);

// A Python dict literal {'root': name, ...} in the order of the map.
std::string dict_literal(const std::map<std::string, std::string>& names);

}  // namespace kernelopt::recompose
