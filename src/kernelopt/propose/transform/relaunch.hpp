#pragma once
// One of Inductor's launches as the candidates relaunch it: its kernel without the autotuning
// decorator, its arguments and grid read from the output code, and the lines of run() that launch
// it.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/inductor/output_code.hpp"

namespace kernelopt::propose {

// A kernel's module text without the autotuning decorator (`@triton_heuristics.pointwise(...)` up
// to `@triton.jit`) and without `triton_helpers.set_driver_to_gpu()` (it picks the GPU driver
// when several are active and fails where none is: Triton's interpreter on the CPU), or "" when
// the text is not in that form.
std::string without_heuristics(const std::string& source);

// One launch of a segment as the config proposer relaunches it: the kernel's source without its
// autotuning decorator and its arguments ({"param", "from": "inputs" | "outputs" | "internal",
// "root"} or {"param", "literal"}), numels, constexprs, grid, blocks that must divide their size.
// With fused_segment (fuse relaunches a segment's every launch but the fused one), a buffer the
// segment neither receives nor returns (allocated by the graph with literal sizes) is an
// "internal" argument the candidate allocates ("shape", "stride", "dtype"), and a max-autotune
// Triton template (FixedGrid) is taken as Inductor launched it (kind "template", grid "fixed",
// "fixed_grid", Inductor's warps and stages as "inductor"); without, such a launch is not
// relaunched. nullopt when the kernel is none of these: a pointwise or (persistent) reduction on
// a 1-D or 2-D grid with tunable blocks only, or (fused_segment) such a template.
std::optional<nlohmann::json> relaunch_params(const inductor::OutputCode& code,
                                              const analysis::DispatchMap& map,
                                              const analysis::Segment& segment,
                                              int launch_index,
                                              bool fused_segment);

// Every launch of a multi-launch segment as relaunch_params gives it within a fused segment, in
// order; nullopt when one of them cannot be relaunched. config relaunches them all with settings
// of their own; fuse first inlines a producer into its readers.
std::optional<std::vector<nlohmann::json>> segment_relaunches(const inductor::OutputCode& code,
                                                              const analysis::DispatchMap& map,
                                                              const analysis::Segment& segment);

// The arguments of one relaunch `p` as run() passes them: literals, and each buffer not yet in
// `tensors` (root -> variable) bound to a new `_tN` in `body` (internal ones allocated on
// `_device`), earlier ones by their variable.
std::vector<std::string> bind_args(const nlohmann::json& p,
                                   std::map<std::string, std::string>& tensors,
                                   std::string& body);

// The lines of run() that launch one relaunch `p` (relaunch_params' form): each buffer not yet in
// `tensors` (root -> variable) bound to a new `_tN` (internal ones allocated on `_device`) in
// `body`, and the launch statement returned, with the settings' `<prefix>XBLOCK`, ...
// `<prefix>num_warps` values. Launches that share `tensors` share their buffers.
std::string launch_text(const nlohmann::json& p,
                        const nlohmann::json& settings,
                        const std::string& prefix,
                        std::map<std::string, std::string>& tensors,
                        std::string& body);

}  // namespace kernelopt::propose
