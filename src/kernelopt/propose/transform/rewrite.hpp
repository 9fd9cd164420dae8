#pragma once
// The rewrite proposer's transformations of a kernel's text (one pass, shifted sums, recompute
// instead of reload, cheaper math) and its match and starting settings.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/inductor/output_code.hpp"
#include "kernelopt/propose/match.hpp"

namespace kernelopt::propose {

// rewrite (rewrite.cpp, one_pass.cpp): one pass instead of two when a row fits on chip. A config
// match of a looped reduction (kind "reduction") with r0_numel <= kOnePassMaxRow whose kernel walks
// the row in two or more `for r0_offset` loops and loads in a later one what an earlier one loaded,
// or that keeps an online softmax in one or more: the loops flattened (R0_BLOCK fixed at the row's
// next power of two, so each ran once), the repeated loads replaced by the first one's value and
// the softmax computed over the row in registers. Launched as config launches it (XBLOCK,
// num_warps).
inline constexpr std::int64_t kOnePassMaxRow = 32768;

struct OnePass {
  std::string source;
  int loops = 0;   // `for r0_offset` loops flattened
  int reused = 0;  // loads inside them replaced by an earlier load's value
  // online softmaxes (a running max and sum per lane) made a max, then a sum of exp(x - max), over
  // the row in registers: one exponential per element where the combine computed two
  int softmax = 0;
};

// The kernel module text made one pass, or nullopt when it has no row loop, a loop or atomic it
// does not know, or neither a load to reuse nor an online softmax (a kernel of one walk, such as
// the statistics of a softmax whose output a later kernel computes, qualifies by its softmax
// alone). Assumes every row loop runs once.
std::optional<OnePass> one_pass_source(const std::string& source);

// rewrite's second transformation, shifted sums: a looped reduction's per-lane Welford update
// (`triton_helpers.welford_reduce`, a division per element; or `welford_combine` of single
// elements, M2 zero and weight 1 or 0, Inductor's padded split-reduction form) becomes per-lane
// (weighted) sums of the value and its square, shifted by the lane's first value, turned into
// the same mean and M2 after the loop for Inductor's own cross-lane `triton_helpers.welford`. A
// combine of partial statistics is left as it is. The number of Welford reductions rewritten is
// `count`; nullopt when the text has none in the forms Inductor writes.
struct ShiftedSums {
  std::string source;
  int count = 0;
};

std::optional<ShiftedSums> shifted_sums_source(const std::string& source);

// rewrite (recompute.cpp): a value a looped reduction's first walk stores and its second walk
// loads back is computed again in the second walk from the same inputs; the store goes too where
// its pointer is in `droppable` (a buffer only this kernel of the segment names) and no other load
// of it remains.
struct Recomputed {
  std::string source;
  int count = 0;                     // loads replaced
  std::vector<std::string> dropped;  // pointer parameters whose store went
};

std::optional<Recomputed> recompute_reloads_source(const std::string& source,
                                                   const std::set<std::string>& droppable);

// The rewrite proposer's arithmetic rewrite (cheap_math.cpp): Mish, which Inductor writes as
// tanh(where(x > 20.0, x, log1p(exp(x)))), computed as where(x > 20.0, 1.0, n / (n + 2)) with
// n = e^x (e^x + 2), the kernel's own exponential reused: one libdevice call instead of three.
// Applied by rewrite, fuse and split to every launch they relaunch (not config's); nullopt where
// the text has no such pattern.
struct CheapMath {
  std::string source;
  int mish = 0;  // tanh(softplus) patterns rewritten
};

std::optional<CheapMath> cheaper_math_source(const std::string& source);

// cheaper_math_source on one relaunch's "source" (not a template's): the patterns rewritten.
int cheaper_math_launch(nlohmann::json& launch);

// The rewrite proposer's match: one pass (one looped reduction alone in its segment whose row
// fits), else shifted sums in the segment's kernels (one launch, or a whole segment relaunched
// as config relaunches it).
std::optional<Match> match_rewrite(const inductor::OutputCode& code,
                                   const analysis::DispatchMap& map,
                                   const analysis::Segment& segment);
std::vector<nlohmann::json> rewrite_settings(const Match& match);

}  // namespace kernelopt::propose
