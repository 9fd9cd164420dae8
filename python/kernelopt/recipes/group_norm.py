"""Group normalization (nn.GroupNorm's forward: biased variance, optional per-channel weight and
bias) of a contiguous float input [N, C, *spatial], as Inductor computes it: one launch of
statistics, one of the output, reading the input twice from HBM. Instance normalization is the
same with one channel per group; layer normalization (`layer_norm`) the same kernel over rows of
the trailing dimensions, with the affine parameters element by element.

A group of sample n is one contiguous row of (C / G) * prod(spatial) elements. The recipe walks
each row twice in one launch, with rows split among programs as `row_two_pass` does (`split`: 0
sizes it so that the rows in flight take half of L2; the row's programs meet at a barrier; the
grid is capped at what the GPU keeps resident, else two launches, as under the interpreter), so
the second walk reads L2.

Statistics: each chunk sums x - K and (x - K)^2 in float32, K being the chunk's first element (a
shift that keeps the sums small when the mean is large against the spread); the chunks' (count,
mean, M2) combine as Chan's parallel variance. rstd = 1 / sqrt(var + eps), y = (x - mean) * rstd,
then * weight[c] + bias[c]; written in the output's dtype. A program's chunk that lies within one
channel (chunks are usually shorter than a channel) computes y = (x - mean) * a + b with the
channel's a = rstd * weight and b = bias as scalars.
"""

import torch
import triton
import triton.language as tl

from kernelopt.recipes import row_two_pass as rows


@triton.jit
def _group_norm(x_ptr, w_ptr, b_ptr, out_ptr, part_ptr, count_ptr, n_rows, row_len, hw, cpg, groups,
                chunk, eps, HAS_W: tl.constexpr, HAS_B: tl.constexpr, BLOCK: tl.constexpr,
                SPLIT: tl.constexpr, SPLIT_P2: tl.constexpr, REVERSE: tl.constexpr,
                PHASE: tl.constexpr):
    """SPLIT programs per row (a group), program pid taking chunk pid % SPLIT of rows
    pid // SPLIT, + grid / SPLIT, ... PHASE 0: statistics and output with a barrier among a row's
    programs; 1: the chunks' statistics only; 2: the output from them."""
    part, slot, n_slots, lo, hi = rows._split_slot(chunk, row_len, SPLIT)
    lanes = tl.arange(0, BLOCK)
    parts = tl.arange(0, SPLIT_P2)
    n = hi - lo
    n_chunks = tl.cdiv(n, BLOCK)
    for i in tl.range(0, tl.cdiv(n_rows - slot, n_slots)):
        row = slot.to(tl.int64) + i * n_slots
        x_base = x_ptr + row * row_len + lo
        stats = part_ptr + row * (3 * SPLIT)
        if PHASE != 2:
            shift = tl.load(x_base, mask=n > 0, other=0.0).to(tl.float32)
            acc1 = tl.zeros([BLOCK], tl.float32)
            acc2 = tl.zeros([BLOCK], tl.float32)
            for c in tl.range(0, n_chunks):
                cols = c * BLOCK + lanes
                ok = cols < n
                v = tl.load(x_base + cols, mask=ok, other=0.0, eviction_policy="evict_last").to(tl.float32)
                d = tl.where(ok, v - shift, 0.0)
                acc1 += d
                acc2 += d * d
            s1 = tl.sum(acc1, 0)
            s2 = tl.sum(acc2, 0)
            count = tl.maximum(n, 1).to(tl.float32)
            tl.store(stats + part, n.to(tl.float32))
            tl.store(stats + SPLIT + part, shift + s1 / count)
            tl.store(stats + 2 * SPLIT + part, s2 - s1 * s1 / count)
        if PHASE == 0:
            rows._row_barrier(count_ptr, row, SPLIT)
        if PHASE != 1:
            ok_p = parts < SPLIT
            p_n = tl.load(stats + parts, mask=ok_p, other=0.0, cache_modifier=".cg")
            p_mean = tl.load(stats + SPLIT + parts, mask=ok_p, other=0.0, cache_modifier=".cg")
            p_m2 = tl.load(stats + 2 * SPLIT + parts, mask=ok_p, other=0.0, cache_modifier=".cg")
            total = tl.sum(p_n, 0)
            mean = tl.sum(p_n * p_mean, 0) / total
            delta = p_mean - mean
            m2 = tl.sum(p_m2 + p_n * delta * delta, 0)
            rstd = 1.0 / tl.sqrt(tl.maximum(m2 / total, 0.0) + eps)
            o_base = out_ptr + row * row_len + lo
            first_channel = (row % groups) * cpg
            # y = (v - mean) * scale + offset (subtracting first keeps the precision when the
            # mean is large against the spread). A chunk within one channel (the common case:
            # chunks are shorter than a channel) takes the channel's weight and bias as two
            # scalars; one that crosses channels looks them up element by element.
            lo_channel = first_channel + lo // hw
            one_channel = (lo // hw) == ((hi - 1) // hw)
            scale = rstd
            offset = 0.0
            if one_channel:
                if HAS_W:
                    scale = rstd * tl.load(w_ptr + lo_channel).to(tl.float32)
                if HAS_B:
                    offset = tl.load(b_ptr + lo_channel).to(tl.float32)
            for c in tl.range(0, n_chunks):
                cols, ok, v = rows._second_walk_chunk(x_base, c, n_chunks, n, lanes, BLOCK, REVERSE)
                if (HAS_W or HAS_B) and not one_channel:
                    y = (v - mean) * rstd
                    channel = first_channel + (lo + cols) // hw
                    if HAS_W:
                        y = y * tl.load(w_ptr + channel, mask=ok, other=1.0).to(tl.float32)
                    if HAS_B:
                        y = y + tl.load(b_ptr + channel, mask=ok, other=0.0).to(tl.float32)
                else:
                    y = (v - mean) * scale + offset
                tl.store(o_base + cols, y.to(out_ptr.dtype.element_ty), mask=ok)


def reference(x, groups, weight=None, bias=None, eps=1e-5):
    """nn.GroupNorm's forward in float64."""
    w = None if weight is None else weight.double()
    b = None if bias is None else bias.double()
    return torch.nn.functional.group_norm(x.double(), groups, w, b, eps)


def _check(x, out, name):
    if out.shape != x.shape:
        raise ValueError(f"{name}: out must have x's shape")
    if not (x.is_contiguous() and out.is_contiguous()):
        raise ValueError(f"{name}: contiguous input and output only")
    if not (x.dtype.is_floating_point and out.dtype.is_floating_point):
        raise ValueError(f"{name}: float dtypes only")


def group_norm(x, weight, bias, out, groups, eps=1e-5, block=4096, num_warps=8, programs_per_sm=4,
               split=0, reverse=True):
    """out = group_norm(x, groups, weight, bias, eps) for a contiguous x [N, C, *spatial] (weight
    and bias: [C] or None); instance norm is groups = C. split: programs per group (0: as many as
    keep the groups in flight within half of L2)."""
    if x.dim() < 2:
        raise ValueError("group_norm: expects x [N, C, *spatial]")
    _check(x, out, "group_norm")
    n, channels = x.shape[0], x.shape[1]
    if not isinstance(groups, int) or groups <= 0 or channels % groups:
        raise ValueError(f"group_norm: {channels} channels do not split into {groups!r} groups")
    hw = x[0, 0].numel() if x.numel() else 0
    cpg = channels // groups
    return _launch(x, weight, bias, out, n * groups, cpg * hw, hw, cpg, groups, (channels,), eps, block,
                   num_warps, programs_per_sm, split, reverse, "group_norm")


def layer_norm(x, weight, bias, out, dims, eps=1e-5, block=4096, num_warps=8, programs_per_sm=4,
               split=0, reverse=True):
    """out = layer_norm(x, x.shape[-dims:], weight, bias, eps) for a contiguous x (weight and bias:
    of shape x.shape[-dims:] or None): each row of the trailing `dims` dimensions normalized, the
    affine parameters element by element."""
    if not isinstance(dims, int) or not 1 <= dims <= x.dim():
        raise ValueError(f"layer_norm: dims must be an int in [1, {x.dim()}], got {dims!r}")
    _check(x, out, "layer_norm")
    shape = tuple(x.shape[x.dim() - dims:])
    row = 1
    for size in shape:
        row *= size
    # The group kernel with one group of `row` channels of one element: weight[col].
    return _launch(x, weight, bias, out, x.numel() // max(row, 1), row, 1, row, 1, shape, eps, block,
                   num_warps, programs_per_sm, split, reverse, "layer_norm")


def _launch(x, weight, bias, out, n_rows, row_len, hw, cpg, groups, affine_shape, eps, block, num_warps,
            programs_per_sm, split, reverse, name):
    for what, t in (("weight", weight), ("bias", bias)):
        if t is not None and (tuple(t.shape) != tuple(affine_shape) or not t.is_contiguous()):
            raise ValueError(f"{name}: {what} must be a contiguous tensor of shape {list(affine_shape)}")
    if not isinstance(split, int) or split < 0:
        raise ValueError(f"{name}: split must be a non-negative int, got {split!r}")
    if x.numel() == 0:
        return out
    split, chunk = rows.split_rows(row_len, x.element_size(), block, split,
                                   max(programs_per_sm, 1) * rows._sm_count(x.device), x.device)
    partials = torch.empty(n_rows * 3 * split, dtype=torch.float32, device=x.device)
    consts = dict(HAS_W=weight is not None, HAS_B=bias is not None, BLOCK=block, SPLIT=split,
                  SPLIT_P2=triton.next_power_of_2(split), REVERSE=bool(reverse), num_warps=num_warps)
    head = (x, weight if weight is not None else x, bias if bias is not None else x, out)
    rows.launch_split(_group_norm, head, partials, (n_rows, row_len, hw, cpg, groups, chunk, float(eps)),
                      consts, n_rows, split, num_warps, programs_per_sm, x.device)
    return out


def launch(inputs, outputs, params, settings):
    """A candidate's call (params: x, weight and bias by name, the kind, groups or trailing dims,
    eps as text; settings: block, warps, programs per SM, split, direction)."""
    def tensor(name):
        return None if name is None else inputs[name]

    (out,) = outputs.values()
    layer = params.get("kind", "group") == "layer"
    function = layer_norm if layer else group_norm
    function(tensor(params["x"]), tensor(params["weight"]), tensor(params["bias"]), out,
             params["dims" if layer else "groups"], float(params["eps"]),
             settings.get("block", 4096), settings.get("num_warps", 8),
             settings.get("programs_per_sm", 4), settings.get("split", 0),
             settings.get("reverse", 1))
