// Segments: the unit kernelopt replaces. Internal to analysis/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/inductor/graph_fragment.hpp"
#include "kernelopt/inductor/output_code.hpp"

namespace kernelopt::analysis {

// Groups the map's consecutive Triton launches of each graph into segments, with their inputs,
// outputs, time, bytes and floor; with `split`, each Triton launch is a segment of its own.
std::vector<Segment> find_segments(const std::vector<GraphRun>& graphs,
                                   const DispatchMap& map,
                                   double bandwidth_gbps,
                                   bool split = false);

// Multiply-adds times two of a Triton template's full-float32 matrix products: the `mm`, `bmm`,
// `addmm` and `baddbmm` nodes of its Graph fragment, where the kernel multiplies with TF32 off
// (`ALLOW_TF32` False), every product is float32 and each one's sizes are literal (M x N from the
// node, K from its first factor). nullopt otherwise: other kernels, TF32, half precision (the
// tensor cores' rates), or a factor the fragment does not describe.
std::optional<double> full_fp32_product_flops(const inductor::TritonKernel& kernel);

// Raises floor to `compute_floor_ms` where that is larger (or floor is unknown), and the headroom
// with it.
void raise_floor(std::optional<double> compute_floor_ms,
                 double time_ms,
                 std::optional<double>& floor_ms,
                 std::optional<double>& headroom);

// Bytes of one buffer of a graph (graph inputs from the worker's tensor info, allocations from
// the text); nullopt when unknown.
std::optional<std::int64_t> buffer_bytes(const GraphRun& graph, const std::string& name);

// Bytes of distinct buffers; nullopt when any is unknown.
std::optional<std::int64_t> sum_bytes(const GraphRun& graph, const std::vector<std::string>& names);

// Bytes read plus bytes written: a buffer both read and written counts twice (read once, written
// once); nullopt when any size is unknown.
std::optional<std::int64_t> moved_bytes(const GraphRun& graph,
                                        const std::vector<std::string>& reads,
                                        const std::vector<std::string>& writes);

// One reduction group that stays on one SM while it is used again fits in this many bytes (an
// H200 SM has 256 KiB of registers and 228 KiB of shared memory); a larger one is read twice.
inline constexpr std::int64_t kOnChipBytes = std::int64_t{256} * 1024;

// Bytes a correct algorithm must read a second time: for each reduction in the fragments whose
// result is combined again with the data it reduced (a norm: x / f(sum(g(x))); a softmax; a
// group norm's x - mean), and whose reduction group is larger than `on_chip_bytes`, the size of
// the reduced tensor once. nullopt when there is none (the one-pass floor holds).
std::optional<std::int64_t> reread_bytes(const std::vector<inductor::GraphFragment>& fragments,
                                         std::int64_t on_chip_bytes = kOnChipBytes);

// Sets floor (bytes over bandwidth) and headroom (time over floor) where they are known.
void set_floor(std::optional<std::int64_t> bytes,
               double time_ms,
               double bandwidth_gbps,
               std::optional<double>& floor_ms,
               std::optional<double>& headroom);

}  // namespace kernelopt::analysis
