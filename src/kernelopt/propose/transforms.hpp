#pragma once
// The proposers' matchers and transformations: the recipes matched on a segment's graph fragment
// (the FX nodes Inductor wrote above its kernel), and the source transformations of Inductor's own
// kernels (config relaunches, rewrite, fuse, split, retile). Each proposer (proposer.hpp) is built
// on these; the tests reach them directly.
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/inductor/output_code.hpp"
#include "kernelopt/propose/match.hpp"

namespace kernelopt::propose {

// row_two_pass rows of at least this many bytes also get a setting that splits a row among
// programs (132 such rows in flight are 17 MB, a third of the H200's L2).
inline constexpr long kSplitRowBytes = 128L * 1024;

// norm_dim over a dimension that is not the innermost: a dimension of at most this many elements
// gets starting settings that hold it whole in registers.
inline constexpr long kResidentNormRows = 1024;

// reduce_dim: a segment of one launch computing one sum / mean / prod / max / min / amax / amin /
// argmax / argmin over one dimension that is not the innermost, of a floating-point graph input
// whose dimensions after it are contiguous. std::nullopt otherwise.
std::optional<Match> match_reduce_dim(const inductor::OutputCode& code,
                                      const analysis::DispatchMap& map,
                                      const analysis::Segment& segment);

// row_two_pass: a segment of one launch computing softmax, log-softmax, L2 normalization
// (x / linalg_vector_norm(x, 2, [last], keepdim), or its pow/sum/pow/div form) or L1
// normalization (x / sum or mean of abs(x) over [last], keepdim) over the innermost dimension of a
// contiguous floating-point graph input (any rank: the leading dimensions are flattened into rows).
std::optional<Match> match_row_two_pass(const inductor::OutputCode& code,
                                        const analysis::DispatchMap& map,
                                        const analysis::Segment& segment);

// norm_dim: a segment (any launches) normalizing a float graph input x over one dimension d (its
// dimensions after d contiguous), in the forms models write: the sum or mean over [d] (keepdim) of
// pow(x, 2) or x * x, [+ a literal eps], sqrt, rsqrt or pow 0.5, [clamp_min of a literal], then
// x / that or x * rsqrt; or linalg_vector_norm(x, 2, [d], keepdim) [clamped], x / that; or of
// abs(x) summed or averaged [+ eps], x / that; optionally times a weight, a float graph input of
// n values along d (nn.RMSNorm's); expands and casts in between. Every call node is one of the
// form's; one segment output. params: {"x", "dim", "p" (2 or 1), "mean", "eps", "clamp" (0.0:
// none), "weight" (a name or null), "last" (d is the innermost dim), "size" (d's), "row_bytes"
// (last) or "columns" (the contiguous elements after d)}.
std::optional<Match> match_norm(const inductor::OutputCode& code,
                                const analysis::DispatchMap& map,
                                const analysis::Segment& segment);

// cross_entropy: a segment (any number of launches) computing nn.CrossEntropyLoss with mean or
// sum reduction over float logits [N, C] (classes contiguous) and integer targets [N], without
// weights or label smoothing: every node is one of its decomposition's (online softmax or
// amax/exp/sum, log, sub, ne(target, ignore_index), where, gather, neg, sum, div).
std::optional<Match> match_cross_entropy(const inductor::OutputCode& code,
                                         const analysis::DispatchMap& map,
                                         const analysis::Segment& segment);

// scan: a segment (one or more launches) computing cumsum or cumprod over the innermost dimension
// of a contiguous float graph input, optionally of input * mask (a second input), optionally
// reversed as cumsum(x.flip(d), d).flip(d), optionally minus the element (cumsum(x) - x, an
// exclusive sum as models write it), optionally times or over a literal number (an epilogue).
std::optional<Match> match_scan(const inductor::OutputCode& code,
                                const analysis::DispatchMap& map,
                                const analysis::Segment& segment);

// group_norm: a segment (any launches) computing a group, instance or layer norm's forward of a
// contiguous float graph input x, in Inductor's decompositions: var_mean (correction 0) over
// [2, 3] of x [N, C, *spatial] reshaped to [N, G, C / G, prod(spatial)] (group); over [0, 2, ...]
// of x viewed as [1, N * C, *spatial] (instance); or over x's own trailing dims (layer); then add
// eps, rsqrt, sub, mul, the reshape back, and optionally mul by a weight and add a bias of the
// parameters' shape ([C], or the trailing dims for a layer; through unsqueezes and a repeat); one
// segment output. params: {"kind", "x", "weight" and "bias" (names or null), "groups" (or, for a
// layer, "dims": how many trailing dims), "eps" (as written), "row_bytes"}.
std::optional<Match> match_group_norm(const inductor::OutputCode& code,
                                      const analysis::DispatchMap& map,
                                      const analysis::Segment& segment);

// pool: a segment of one launch computing max pooling (values only) or average pooling over the
// last 1-3 dimensions of a contiguous float graph input, or of its unsqueeze (1-D pooling reaches
// Inductor as a 2-D pool of x.unsqueeze(-2)): the nodes prims._low_memory_max_pool_with_offsets,
// max_pool{2,3}d_with_indices or avg_pool{2,3}d, with literal lists and flags.
std::optional<Match> match_pool(const inductor::OutputCode& code,
                                const analysis::DispatchMap& map,
                                const analysis::Segment& segment);

// gemm: a segment of one Triton template launch (max-autotune's own matrix product) whose
// fragment is one mm / bmm / addmm of placeholders or of their reshapes, optionally reshaped
// once more; or a segment of one extern matrix product (mm, addmm, bmm, baddbmm writing out=),
// which exists only when the analysis is not dispatch-aware (--no-dispatch-aware): each operand a
// root buffer the call reads, as is or as a reinterpret_tensor view with literal sizes, strides
// and offset; a float output.
std::optional<Match> match_gemm(const inductor::OutputCode& code,
                                const analysis::DispatchMap& map,
                                const analysis::Segment& segment);

// config: a segment of one pointwise, reduction or persistent-reduction launch whose arguments are
// the segment's own tensors (under their names or a reuse's) and literal sizes, on a 1-D grid or
// a 2-D grid indexed by program_id(0) and program_id(1): Inductor's kernel relaunched with other
// XBLOCK / YBLOCK / R0_BLOCK / num_warps / num_stages (a persistent reduction keeps its R0_BLOCK).
// A strategy of its own next to the segment's recipe, if any.
std::optional<Match> match_config(const inductor::OutputCode& code,
                                  const analysis::DispatchMap& map,
                                  const analysis::Segment& segment);

// The smallest power of two >= n (1 for n <= 1): a whole row's R0_BLOCK.
std::int64_t next_power_of_two(std::int64_t n);

// Whether a relaunch's y programs (ynumel / YBLOCK) fit CUDA's 65535: the relaunch gives z one
// program, where Inductor's Grid2DWithYZOverflow spills the rest of y into z. True without ynumel.
bool y_grid_fits(const nlohmann::json& params, std::int64_t yblock);

// The smallest power-of-two YBLOCK for which y_grid_fits (1 without ynumel).
std::int64_t smallest_yblock(const nlohmann::json& params);

// Whether settings fit the launch: its y programs within CUDA's limit (y_grid_fits), and every
// block that must divide its size (a dimension whose mask Inductor dropped) dividing it.
bool config_fits(const Match& match, const nlohmann::json& settings);

// Writes each launch's potential_ms into the whole-segment matches (params "launches") of the
// segment: what tuning it could give, the order in which the search moves the launches' settings
// (config_match.cpp; 0 until set). It is the launch's time above its floor, from the profiler's
// times (`time_ms`, `floor_ms` and `name` per launch of the map, as the show document lists them);
// a template (its floor, bytes, says nothing of a product's arithmetic), or a launch without a
// floor, counts 5% of its time. A match's launch is the segment's next launch of its kernel (a
// fuse match has one launch fewer); one whose timed name differs from the map's is left as it was.
void set_launch_potentials(std::vector<Match>& matches,
                           const analysis::Segment& segment,
                           const analysis::DispatchMap& map,
                           const nlohmann::json& timed_launches);

// The config proposer's starting settings and its candidate file (config_match.cpp).
std::vector<nlohmann::json> config_settings(const Match& match);
std::string config_source(const Match& match, int segment, const nlohmann::json& settings);

// rewrite (rewrite.cpp): one pass instead of two when a row fits on chip. A config match of a
// looped reduction (kind "reduction") with r0_numel <= kOnePassMaxRow whose kernel walks the row in
// two or more `for r0_offset` loops and loads in a later one what an earlier one loaded, or that
// keeps an online softmax in one or more: the loops flattened (R0_BLOCK fixed at the row's next
// power of two, so each ran once), the repeated loads replaced by the first one's value and the
// softmax computed over the row in registers. Launched as config launches it (XBLOCK, num_warps).
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

// A rewrite of a segment's launches made on top of another strategy's match `base` (named `on`:
// "fuse", "rewrite", or "" for config): base's params (a whole segment's) with `launches`, kind
// "segment" and RECIPE_on, and `why` followed by base's.
Match on_base_match(const std::optional<Match>& base,
                    const std::string& on,
                    nlohmann::json launches,
                    const std::string& recipe,
                    const std::string& why);

// `on_base` applied to fuse's match, then the rewrite's, then config's relaunch (split and retile
// add to what the other rewrites did): the first match it gives, with the matches on the further
// bases in params "other_bases" ([{"on": "rewrite" or "config", "params", "why"}]), which a
// setting "on" picks (on_chosen_base). A launch's parameters in a form it does not expect give
// nothing from that base, not a failed search.
using OnBase = std::function<std::optional<Match>(const std::optional<Match>&, const std::string&)>;
std::optional<Match> first_on_base(const std::optional<Match>& fuse,
                                   const std::optional<Match>& rewrite,
                                   const std::optional<Match>& config,
                                   const OnBase& on_base);

// The match a setting's "on" picks among a split's or retile's bases (the first base where the
// settings have none), and the settings without it. Throws std::invalid_argument for a base the
// match does not have.
std::pair<Match, nlohmann::json> on_chosen_base(const Match& match, const nlohmann::json& settings);

// The starting settings of a match on several bases: `settings_of` of each base's match, the
// further bases' marked with their "on", interleaved (each base's first, then each one's second).
std::vector<nlohmann::json> on_bases_settings(
    const Match& match,
    const std::function<std::vector<nlohmann::json>(const Match&)>& settings_of);

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

// fuse (fuse.cpp), a rewrite of Inductor's kernels: a pointwise launch P whose output B is read
// only by later launches of the segment (not returned, not read after them, not a graph input;
// no launch from P to its last reader writes what P reads) is dropped, and every load of B in
// its readers is replaced by P's computation at that address, so B is neither written nor read
// again. Inductor writes P separately when a reader reads B at several addresses per element (a
// pooling window after a norm's output: L2/85 writes and rereads the whole normalized tensor) or
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

// Whether `text` is a Python identifier (a buffer or parameter name).
bool identifier(const std::string& text);

// The root buffer a name holds just before step `step`, through reuses (`bufN = bufM; del bufM`,
// the same tensor under a new name); nullopt when the name is a view (its tensor is not the
// root's).
std::optional<std::string> reused_root(const inductor::OutputCode& code,
                                       int step,
                                       const std::string& name);

}  // namespace kernelopt::propose
