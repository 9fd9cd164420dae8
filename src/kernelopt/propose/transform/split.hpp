#pragma once
// The split strategy: a looped reduction's rows chunked among programs, the partial and combine
// kernels it writes, its match and its launch.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/inductor/output_code.hpp"
#include "kernelopt/propose/match.hpp"

namespace kernelopt::propose {

// split (split.cpp), a rewrite of Inductor's kernels: a looped reduction of at most
// kSplitMostRows rows of at least kSplitLeastRow elements made two kernels, a partial kernel
// (Inductor's, its loop over one chunk of the row: program_id(1) picks the chunk) storing each
// reduction's lane result per (chunk, row), and a combine kernel reducing a row's partials the same
// way (sum, max2, min2, Welford's combine) and running Inductor's epilogue. Its own strategy,
// "split" (proposer rewrite); a Welford loop is made shifted sums first. It is built on fuse's
// launches, the rewrite's and config's relaunch, where each applies: the first is the match
// ("split_on"), the others its "other_bases" (first_on_base).
// params: {"kind": "segment", "split_on", "launches": [...,
// split ones with "split_reduction": {"partials", "dtype", "reductions", "shifted_sums"} and their
// starting "settings" (config's tiles with SPLIT: chunks a row)]}.
inline constexpr std::int64_t kSplitMostRows = 16384;
inline constexpr std::int64_t kSplitLeastRow = 4096;
inline constexpr std::int64_t kSplitPrograms = 4096;  // programs the starting settings aim at
// A two-walk split's starting chunk: what one resident program holds between its walks (at four
// programs an SM on 132 SMs, about half of the H200's L2), and its programs per SM.
inline constexpr std::int64_t kSplitWalkBytes = std::int64_t{48} * 1024;
inline constexpr std::int64_t kSplitWalkResident = 4;

struct SplitReduction {
  std::string source;  // the module text: the header, KERNEL_split_partial, KERNEL_split_combine
  std::string kernel;  // KERNEL
  int reductions = 0;  // reductions over the lanes split
  int partials = 0;    // values each (chunk, row) stores: 1 a sum, max or min, 3 a Welford triple
  std::string dtype;   // the partials' torch dtype ("torch.float32", "torch.float64")
  // A kernel that walks its rows twice (statistics, then the output): one kernel,
  // KERNEL_split_walks, whose SPLIT programs of a row block meet at a barrier between the walks.
  bool walks = false;
};

// What match_split does to one kernel's module text (config's relaunch source), exposed for
// tests; nullopt where it does not apply (split.cpp's opening comment says where).
std::optional<SplitReduction> split_reduction_source(const std::string& source);

std::optional<Match> match_split(const inductor::OutputCode& code,
                                 const analysis::DispatchMap& map,
                                 const analysis::Segment& segment);

// match_split from the segment's fuse, rewrite and config matches already made (match_strategies
// makes each once).
std::optional<Match> split_of(const std::optional<Match>& fuse,
                              const std::optional<Match>& rewrite,
                              const std::optional<Match>& config);

// launch_text for a split launch (params with "split_reduction"): the partial buffers, the partial
// launch on (x programs, chunks) and the combine launch; SPLIT from the settings (4 by default),
// fewer where the last chunks would be empty.
std::string split_launch_text(const nlohmann::json& p,
                              const nlohmann::json& settings,
                              const std::string& prefix,
                              std::map<std::string, std::string>& tensors,
                              std::string& body);

// The split's partial buffers (`split` x rows each, allocated in `body`, their variables appended
// to `parts`) and the launch of KERNEL_split_combine over them, for a split or retile launch `p`
// whose arguments are `call_args`; "" where no argument is a tensor.
std::string split_combine_launch(const nlohmann::json& p,
                                 const std::vector<std::string>& call_args,
                                 const std::string& prefix,
                                 std::int64_t split,
                                 std::vector<std::string>& parts,
                                 std::string& body);

}  // namespace kernelopt::propose
