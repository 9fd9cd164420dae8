#pragma once
// The retile strategy: a looped reduction over a channels-last tensor read in tiles of memory
// order, the kernels it writes, its match, its launch and the limits of its settings.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/inductor/output_code.hpp"
#include "kernelopt/propose/match.hpp"
#include "kernelopt/propose/transform/split.hpp"

namespace kernelopt::propose {

// retile (retile.cpp), a rewrite of Inductor's kernels: a looped reduction over a channels-last
// tensor [N, S, C] (rows x = n * G + c / CG of S * CG elements r = s * CG + c % CG: a group norm's
// statistics after a convolution, G groups of CG channels) whose tile [XBLOCK rows, R0_BLOCK]
// reads CG * 4 contiguous bytes of every C * 4. It becomes KERNEL_retile_partial, whose program
// takes one sample's spatial chunk of CHUNK rows in tiles [SB, CB] (CB = C rounded up to a power of
// two), contiguous in memory, Inductor's loop body unchanged on that tile (its index names
// computed from it), reduced over the spatial rows per channel and stored as the partials of the
// split's combine (CG of them per chunk), and KERNEL_split_combine, which finishes each row as the
// split does. Its own strategy, "retile" (proposer rewrite); a Welford loop is made shifted sums
// first; like the split, it is built on fuse's, the rewrite's and config's launches where each
// applies (the first the match, the others its "other_bases").
// Each row's partials lie together, [xnumel, n_split]; where CG is a power of two the partial
// kernel combines a group's channels itself (one partial a chunk), else one a (chunk, channel).
// Launch params: "split_reduction" with "retile": {"groups", "channels", "samples", "spatial",
// "per_chunk", "channel_block"}; settings SB, CHUNK, num_warps, num_stages.
struct RetileReduction {
  SplitReduction split;        // the module text (partial and combine) and its partials
  std::int64_t groups = 0;     // G: rows a sample
  std::int64_t channels = 0;   // C = G * CG: a spatial row's contiguous elements
  std::int64_t samples = 0;    // N = xnumel / G
  std::int64_t spatial = 0;    // S = r0_numel / CG
  std::int64_t per_chunk = 1;  // partials a row per chunk: 1 (the group's channels combined), or CG
};

// What match_retile does to one kernel's module text, exposed for tests; nullopt where the
// kernel is not such a reduction (retile.cpp's opening comment says where).
std::optional<RetileReduction> retile_reduction_source(const std::string& source);

// match_retile from the segment's fuse, rewrite and config matches already made.
std::optional<Match> retile_of(const std::optional<Match>& fuse,
                               const std::optional<Match>& rewrite,
                               const std::optional<Match>& config);

std::optional<Match> match_retile(const inductor::OutputCode& code,
                                  const analysis::DispatchMap& map,
                                  const analysis::Segment& segment);

// launch_text for a retile launch: the partial buffers, the partial launch on N x chunks programs
// and the split's combine launch.
std::string retile_launch_text(const nlohmann::json& p,
                               const nlohmann::json& settings,
                               const std::string& prefix,
                               std::map<std::string, std::string>& tensors,
                               std::string& body);

// Whether a retile launch's settings fit: an [SB, CB] tile of at most kRetileMostTile elements,
// CHUNK >= SB, and at most kRetileMostPartials partials a row. True for any other launch.
bool retile_fits(const nlohmann::json& p, const nlohmann::json& settings);
inline constexpr std::int64_t kRetileMostTile = 8192;
inline constexpr std::int64_t kRetileMostPartials = 8192;
// The fewest elements the retile strategy retiles: less runs in microseconds however it is tiled
// (L2/73's second-stage batch-norm statistics, 68 000), and a candidate costs the search its gates.
inline constexpr std::int64_t kRetileLeastElements = 100000;

}  // namespace kernelopt::propose
