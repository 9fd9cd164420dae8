#pragma once
// The recipes' matchers: the segments whose graph fragment (the FX nodes Inductor wrote above its
// kernel) each recipe proposer recognizes, and the parameters it reads from them.
#include <optional>

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

}  // namespace kernelopt::propose
