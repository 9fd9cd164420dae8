#pragma once
// The fuse strategy: a pointwise producer computed inside its readers instead of written and
// reread, a persistent norm split for it, its match, settings, neighbours and candidate file.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/inductor/output_code.hpp"
#include "kernelopt/propose/match.hpp"

namespace kernelopt::propose {

// fuse (fuse_match.cpp, fuse.cpp), a rewrite of Inductor's kernels: a pointwise launch P whose
// output B is read only by later launches of the segment (not returned, not read after them, not a
// graph input; no launch from P to its last reader writes what P reads) is dropped, and every load
// of B in its readers is replaced by P's computation at that address, so B is neither written nor
// read again. Inductor writes P separately when a reader reads B at several addresses per element
// (a pooling window after a norm's output: L2/85 writes and rereads the whole normalized tensor) or
// when several kernels read it. Refused when P is not a 1-D pointwise kernel with one store at
// `xindex`, uses XBLOCK or loops, or a reader reads B other than through `tl.load(B + (index),
// mask, ...)`. The segment's other launches are relaunched as the config proposer does.
// params: {"launches": [relaunch_params..., fused ones with "fused": true], "producer",
// "consumers", "buffer", "loads"}.
std::optional<Match> match_fuse(const inductor::OutputCode& code,
                                const analysis::DispatchMap& map,
                                const analysis::Segment& segment);

// P's kernel source inlined into C's at every load of C's pointer parameter `c_param` (what
// match_fuse does to the text; exposed for tests). `p_args` maps P's pointer parameters to C's
// names (P's in-out pointer to `c_param`, the others to the new parameters the fused kernel
// takes after C's pointer parameters, in this order). nullopt when the texts are not in the form
// match_fuse needs.
struct Inlined {
  std::string source;                   // C's module text with the fused kernel
  std::string kernel;                   // its name
  std::vector<std::string> new_params;  // P's pointer parameters C now takes, renamed
  int loads = 0;                        // loads of B replaced
  int merged = 0;                       // the copies' statements computed once (see straight_line)
  int cost = 1;  // what the copies cost, in whole copies of P's body (at least 1; loads at most)
};

std::optional<Inlined> inline_producer(const std::string& p_source,
                                       const std::string& c_source,
                                       const std::string& c_param);

// A persistent reduction that normalizes whole contiguous rows (`tl.store(PTR + (r0_A + ROW*xB),
// VALUE, ..)` with r0_A = r0_index and xB = xindex), split in two: the statistics kernel, which
// stores each row value the element needs (a reduction's result, or what is computed from such
// results and constants) at its row instead of the row itself, and an apply kernel, pointwise,
// that computes the element at each offset of the row buffer from the same inputs and the
// statistics. `module` is the kernel's module text (its decorator gives the element types),
// `source` its relaunch source (config's). Fuse then inlines the apply kernel into the row
// buffer's readers.
struct SplitNorm {
  std::string stats_source;               // the kernel, its row store replaced
  std::string apply_source;               // module text of KERNEL_apply
  std::vector<std::string> apply_params;  // its pointers: the kernel's, then in_ptr_statsN
  std::vector<std::string> stats;         // the row values stored (out_ptr_stats0, ...)
  std::int64_t rows = 0;
  std::int64_t row = 0;
};

std::optional<SplitNorm> split_persistent(const std::string& module, const std::string& source);

std::vector<nlohmann::json> fuse_settings(const Match& match);
std::vector<nlohmann::json> fuse_neighbours(const Match& match, const nlohmann::json& settings);
std::string fuse_source(const Match& match, int segment, const nlohmann::json& settings);

}  // namespace kernelopt::propose
