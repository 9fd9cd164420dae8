#pragma once
// The cross-run cache in the optimize loop (store/cache.hpp). A segment is known by its
// fingerprint: its Triton kernels' sources, its inputs' and outputs' shapes, strides and dtypes
// in order (not their names), the GPU and the versions. What the gates accepted for a segment in
// one run is recorded under it; a later run on any model with the same segment writes the cached
// candidate for its own segment (inputs and outputs renamed by position) and puts it through the
// gates again before any search.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kernelopt/engine/workbench.hpp"
#include "kernelopt/store/cache.hpp"

namespace kernelopt::engine {

// The run's cache: --cache DIR, else the user's (Cache::default_dir()); none with --no-cache.
// A cache that cannot be opened is reported and the run goes on without it.
std::optional<store::Cache> open_cache(const VerifyOptions& options, const Progress& progress);

// The fingerprint of a probed segment; `env` is the worker's environment document.
std::string segment_fingerprint(const Graphs& graphs,
                                const gate::Candidate& candidate,
                                const nlohmann::json& env);

// The segment's interface as the cache records it: its input and output root names in order.
nlohmann::json interface_of(const analysis::Segment& segment);

// A cached candidate's source for `segment`: as recorded where its interface names are the
// segment's, else wrapped so that this segment's names reach it in the recorded positions.
std::string reused_source(const store::VerifiedSegment& cached, const analysis::Segment& segment);

}  // namespace kernelopt::engine
