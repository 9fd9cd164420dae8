// What the split and the retile rewrites (split.cpp, retile.cpp) read of an Inductor looped
// reduction: its prologue, its `for r0_offset` loop (or its two walks), the lane statements and
// reductions after the loop and the epilogue, and the combine kernel both write.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kernelopt::propose::detail {

// One Python statement of a kernel, joined over its open brackets.
struct Stmt {
  std::size_t first = 0;  // first physical line
  std::size_t last = 0;   // last physical line
  std::string text;       // joined and trimmed
  std::vector<std::string> targets;
  std::string rhs;
  std::set<std::string> uses;  // identifiers of its right side (all of it when not an assignment)
};

// A reduction over the lanes after the loop: `L = tl.sum(A, 1)[:, None]` (the suffix optional),
// max2, min2 of one value, or `L0, L1, L2 = triton_helpers.welford(M, M2, W, 1)`.
struct Reduce {
  std::string op;  // "sum", "max", "min", "welford"
  std::vector<std::string> outputs;
  std::vector<std::string> args;
  bool keeps_dim = false;  // written with `[:, None]`: its outputs are [XBLOCK, 1]
};

// A kernel of one top-level `for r0_offset in tl.range(0, r0_numel, R0_BLOCK)` loop (or two: the
// statistics walk, then the output's), constexprs XBLOCK and R0_BLOCK only, float accumulators
// [XBLOCK, R0_BLOCK] read after the loop only through reductions over the lanes.
struct LoopedReduction {
  std::vector<std::string> lines;  // the module text, line by line
  std::string header;              // the lines above `@triton.jit`
  std::string kernel;              // its name
  std::string runtime;             // its runtime parameters, joined with ", "
  std::size_t def_at = 0;          // the def line
  std::size_t loop_at = 0;         // the (first) loop's `for` line
  std::size_t body_end = 0;        // the line after its body
  std::size_t after_end = 0;       // the end of what follows it (the second walk's `for`, or EOF)
  std::size_t walk_end = 0;        // the end of the second walk (EOF when there is none)
  bool walks = false;              // two walks: statistics, then the output
  std::vector<Stmt> prologue, body, after, walk;
  std::optional<std::size_t> mask_line;  // `r0_mask = r0_index < r0_numel`; none where dropped
  std::set<std::string> accumulators;
  std::string type;                 // the accumulators' element type ("float32", "float64")
  std::set<std::string> lanes;      // accumulators and lane values computed from them
  std::set<std::string> loop_only;  // names only the loop defines
  std::vector<std::optional<Reduce>> kinds;  // per statement after the loop: its reduction
  std::vector<bool> lane_level;              // per statement after the loop: a lane statement
  int reductions = 0;
  std::vector<std::string> parts;  // one partial buffer parameter per reduced value
};

// The statements of lines [begin, end).
std::vector<Stmt> statements(const std::vector<std::string>& lines,
                             std::size_t begin,
                             std::size_t end);

// Whether s's right side uses one of names.
bool uses_any(const Stmt& s, const std::set<std::string>& names);

// The Triton call of a reduction over the lanes: tl.sum, triton_helpers.max2, min2 or welford.
const char* reduction_callee(const std::string& op);

// The statement that combines a reduction's partials (loaded as part<N>, N from `part`, which it
// advances), a row's chunks along dimension 1: a sum of sums, a max of maxima, a min of minima,
// Welford's combine of (mean, M2, weight) triples.
std::string combine_statement(const Reduce& r, int& part);

// The kernel's parts; nullopt where it is not such a reduction (split.cpp's opening comment).
std::optional<LoopedReduction> parse_looped_reduction(const std::string& source);

// KERNEL_split_combine: the prologue's row names, a row's n_split partials of each reduced value
// (part_ptrK + AT: the split's layout [n_split, xnumel] by default, a retile's [xnumel, n_split])
// combined, then the epilogue, unchanged; "" where the epilogue needs what the combine drops.
std::string combine_kernel(const LoopedReduction& r,
                           const std::string& at = "split_index * xnumel + xindex");

}  // namespace kernelopt::propose::detail
