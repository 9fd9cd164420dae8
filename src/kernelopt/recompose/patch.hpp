// The two edits of output code that involve segments. Probes: `_ko_probe(SEG, "in"|"out", {...})`
// around each segment, so that the worker can keep the segment's real inputs and outputs.
// Substitution: each accepted segment's launches replaced by one call of its candidate's `run`;
// every other line stays byte for byte.
#pragma once

#include <string>
#include <vector>

#include "kernelopt/inductor/output_code.hpp"
#include "kernelopt/recompose/bindings.hpp"

namespace kernelopt::recompose {

// Inserts the probes of `segments` (all of one graph, parsed as `code`).
std::string probe_segments(const std::string& text,
                           const inductor::OutputCode& code,
                           const std::vector<SegmentInterface>& segments);

// One segment's replacement: its interface and the candidate file the optimized module loads
// (a name relative to the module's folder, e.g. "seg2.py").
struct Replacement {
  SegmentInterface segment;
  std::string candidate_file;
};

// The recomposed module: in each replaced segment's region the statements that are not its
// launches keep their order (allocations and aliases before the call, `del`s after it), the
// launches become `_ko_segment_N(inputs, outputs)`, and a loader for the candidates is inserted
// before `call`'s definition.
std::string substitute_segments(const std::string& text,
                                const inductor::OutputCode& code,
                                const std::vector<Replacement>& replacements);

}  // namespace kernelopt::recompose
