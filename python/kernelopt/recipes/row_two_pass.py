"""Row operations that must read a row twice: L2 and L1 normalization, softmax, log-softmax over
the innermost (contiguous) dimension, for rows too long to keep on chip.

Pass 1 walks the row forward and folds it into statistics (the sum of squares; an online max and
sum of exponentials); pass 2 writes the output. Two things make the second read cheaper than
Inductor's looped reduction, which reads the row twice from HBM when many rows are in flight:

- Persistent programs (`programs_per_sm` per SM, each taking rows pid, pid + P, ...), so only a
  few rows are in flight and pass 2 finds its row in L2 (pass 1 loads with evict_last).
- `reverse`: pass 2 walks the row backward, so it starts on the chunks pass 1 loaded last, the
  ones most likely still in L2.

- `split`: a row too long for every row in flight to fit in L2 (a 1.5 MB softmax row times 132
  programs is 200 MB; the H200's L2 is 50-60 MB) is shared by `split` programs, each walking a
  chunk of it twice. The chunks' partial statistics are combined through a small buffer after a
  barrier among the row's programs (an atomic counter per row). The barrier needs every program of
  the grid resident at once: the grid is at most what the compiled kernel's registers and shared
  memory let the GPU hold, else (and under the interpreter, which runs programs one by one) the
  same code runs as two launches, partial statistics then the output.

Rows whose length or stride is not a multiple of 4 elements defeat 16-byte vector loads. With
`aligned`, each row is split into a scalar head (up to the first 16-byte boundary), full unmasked
chunks of BLOCK elements (vectorized), and a masked tail; this needs the input and output rows to
have the same stride and the same 16-byte phase.

Accumulates in float32, writes the output's dtype. l2_normalize divides by the norm as
`x / torch.norm(x, p=2, dim=-1, keepdim=True)` does (a zero row gives NaN, as there); l1_normalize
by the sum of absolute values, l1_mean_normalize by their mean. The normalizations also take the
forms models write around them (`norm_divisor`): the statistic's mean instead of its sum (`mean`,
an RMS norm's mean of squares), `eps` added to it before the root, the divisor clamped from below
(`clamp`, F.normalize's max(norm, eps)), and a `weight` along the row that multiplies the result
(nn.RMSNorm's).
"""

import math
import os

import torch
import triton
import triton.language as tl

# How the last split launch ran: (split, grid, "barrier" or "two launches"), for tests and benches.
last_split = None

OPS = ("l2_normalize", "l1_normalize", "l1_mean_normalize", "softmax", "log_softmax")


@triton.constexpr_function
def _sums(op):
    """The normalizations, whose statistic is one sum (the softmax family keeps a max and a sum)."""
    return op in ("l2_normalize", "l1_normalize", "l1_mean_normalize")


@triton.jit
def norm_divisor(total, n, ROOT: tl.constexpr, MEAN: tl.constexpr, EPS: tl.constexpr,
                 CLAMP: tl.constexpr):
    """What a normalization divides by, from the sum of its statistic over n elements (of squares
    when ROOT, of absolute values otherwise): [the mean,] [+ EPS,] [the square root,] [at least
    CLAMP]. EPS and CLAMP 0.0 leave those steps out."""
    d = total
    if MEAN:
        d = d / n
    if EPS != 0.0:
        d = d + EPS
    if ROOT:
        d = tl.sqrt(d)
    if CLAMP != 0.0:
        d = tl.maximum(d, CLAMP)
    return d


@triton.jit
def _divisor(total, n_cols, OP: tl.constexpr, MEAN: tl.constexpr, EPS: tl.constexpr,
             CLAMP: tl.constexpr):
    # What a normalization divides by, from its sum.
    return norm_divisor(total, n_cols, OP == "l2_normalize", MEAN or OP == "l1_mean_normalize", EPS,
                        CLAMP)


@triton.jit
def _weighted(r, w_ptr, cols, ok, HAS_W: tl.constexpr):
    # A normalization's result times its weight at the row's columns (nn.RMSNorm's), if any.
    if HAS_W:
        r = r * tl.load(w_ptr + cols, mask=ok, other=0.0).to(tl.float32)
    return r


@triton.jit
def _stats_chunk(v, ok, acc_a, acc_b, OP: tl.constexpr):
    # acc_a/acc_b: sum of squares or of absolute values (and unused) for the normalizations;
    # running max and sum of exp relative to it for the softmax family. Masked lanes must not
    # change the accumulators.
    if OP == "l2_normalize":
        acc_a += tl.where(ok, v * v, 0.0)
    elif _sums(OP):
        acc_a += tl.where(ok, tl.abs(v), 0.0)
    else:
        v = tl.where(ok, v, float("-inf"))
        new_max = tl.maximum(acc_a, v)
        # exp(-inf - -inf) is NaN: a lane that has seen only -inf keeps a zero sum.
        scale = tl.where(new_max == float("-inf"), 0.0, tl.exp(acc_a - new_max))
        add = tl.where(new_max == float("-inf"), 0.0, tl.exp(v - new_max))
        acc_b = acc_b * scale + add
        acc_a = new_max
    return acc_a, acc_b


@triton.jit
def _finish_stats(acc_a, acc_b, OP: tl.constexpr):
    if _sums(OP):
        return tl.sum(acc_a, 0), 0.0  # the sum; the caller makes it a divisor
    else:
        row_max = tl.max(acc_a, 0)
        scale = tl.where(acc_a == float("-inf"), 0.0, tl.exp(acc_a - row_max))
        total = tl.sum(acc_b * scale, 0)
        return row_max, total


@triton.jit
def _apply(v, s_a, s_b, OP: tl.constexpr):
    if _sums(OP):
        return v / s_a
    elif OP == "softmax":
        return tl.exp(v - s_a) / s_b
    else:
        return v - s_a - tl.log(s_b)


@triton.jit
def _stats_walk(x, limit, lanes, init, OP: tl.constexpr, BLOCK: tl.constexpr):
    """Pass 1 over x[0:limit) in chunks of BLOCK (masked): the walk's statistics."""
    acc_a = tl.full([BLOCK], init, tl.float32)
    acc_b = tl.zeros([BLOCK], tl.float32)
    for c in tl.range(0, tl.cdiv(limit, BLOCK)):
        cols = c * BLOCK + lanes
        ok = cols < limit
        v = tl.load(x + cols, mask=ok, other=0.0, eviction_policy="evict_last").to(tl.float32)
        acc_a, acc_b = _stats_chunk(v, ok, acc_a, acc_b, OP)
    return _finish_stats(acc_a, acc_b, OP)


@triton.jit
def _second_walk_chunk(x, c, n_chunks, limit, lanes, BLOCK: tl.constexpr, REVERSE: tl.constexpr):
    """Step c of a second walk over x[0:limit) (backward when REVERSE): the chunk's columns, their
    mask and values (float32, loaded evict_first: the walk reads them for the last time)."""
    if REVERSE:
        k = n_chunks - 1 - c
    else:
        k = c
    cols = k * BLOCK + lanes
    ok = cols < limit
    v = tl.load(x + cols, mask=ok, other=0.0, eviction_policy="evict_first").to(tl.float32)
    return cols, ok, v


@triton.jit
def _apply_walk(x, o, w, limit, lanes, s_a, s_b, OP: tl.constexpr, BLOCK: tl.constexpr,
                REVERSE: tl.constexpr, HAS_W: tl.constexpr):
    """Pass 2 over x[0:limit) in chunks of BLOCK (masked), backward when REVERSE: o = op(x)
    (times w[0:limit) when HAS_W)."""
    n_chunks = tl.cdiv(limit, BLOCK)
    for c in tl.range(0, n_chunks):
        cols, ok, v = _second_walk_chunk(x, c, n_chunks, limit, lanes, BLOCK, REVERSE)
        r = _weighted(_apply(v, s_a, s_b, OP), w, cols, ok, HAS_W)
        tl.store(o + cols, r.to(o.dtype.element_ty), mask=ok)


@triton.jit
def _row_two_pass(x_ptr, out_ptr, w_ptr, n_rows, n_cols, x_row, out_row, OP: tl.constexpr,
                  BLOCK: tl.constexpr, REVERSE: tl.constexpr, ALIGNED: tl.constexpr,
                  MEAN: tl.constexpr, EPS: tl.constexpr, CLAMP: tl.constexpr, HAS_W: tl.constexpr):
    pid = tl.program_id(0)
    n_programs = tl.num_programs(0)
    first = pid.to(tl.int64)
    lanes = tl.arange(0, BLOCK)
    head_lanes = tl.arange(0, 4)
    init = 0.0 if _sums(OP) else float("-inf")
    for i in tl.range(0, tl.cdiv(n_rows - pid, n_programs)):
        row = first + i * n_programs  # int64: row * stride overflows 32 bits on large inputs
        x_base = row * x_row
        o_base = row * out_row
        acc_a = tl.full([BLOCK], init, tl.float32)
        acc_b = tl.zeros([BLOCK], tl.float32)
        if ALIGNED:
            # Elements before the first 16-byte boundary (0-3), then n_full unmasked chunks.
            head = (4 - x_base % 4) % 4
            head = tl.minimum(head, n_cols).to(tl.int32)
            body = tl.multiple_of(x_base + head, 4)
            obody = tl.multiple_of(o_base + head, 4)
            n_full = (n_cols - head) // BLOCK
            tail = head + n_full * BLOCK
            h_ok = head_lanes < head
            hv = tl.load(x_ptr + x_base + head_lanes, mask=h_ok, other=0.0).to(tl.float32)
            h_a = tl.full([4], init, tl.float32)
            h_b = tl.zeros([4], tl.float32)
            h_a, h_b = _stats_chunk(hv, h_ok, h_a, h_b, OP)
            for c in tl.range(0, n_full):
                v = tl.load(x_ptr + body + c * BLOCK + lanes, eviction_policy="evict_last").to(tl.float32)
                acc_a, acc_b = _stats_chunk(v, lanes < BLOCK, acc_a, acc_b, OP)
            t_ok = tail + lanes < n_cols
            tv = tl.load(x_ptr + x_base + tail + lanes, mask=t_ok, other=0.0,
                         eviction_policy="evict_last").to(tl.float32)
            acc_a, acc_b = _stats_chunk(tv, t_ok, acc_a, acc_b, OP)
            s_a, s_b = _finish_stats(acc_a, acc_b, OP)
            if _sums(OP):
                s_a = _divisor(s_a + tl.sum(h_a, 0), n_cols, OP, MEAN, EPS, CLAMP)
            else:
                h_max, h_sum = _finish_stats(h_a, h_b, OP)
                both = tl.maximum(s_a, h_max)
                s_b = (tl.where(s_a == float("-inf"), 0.0, s_b * tl.exp(s_a - both))
                       + tl.where(h_max == float("-inf"), 0.0, h_sum * tl.exp(h_max - both)))
                s_a = both
            # Pass 2: the tail and the head, then the chunks (backward when REVERSE).
            t_out = _weighted(_apply(tv, s_a, s_b, OP), w_ptr, tail + lanes, t_ok, HAS_W)
            tl.store(out_ptr + o_base + tail + lanes, t_out.to(out_ptr.dtype.element_ty), mask=t_ok)
            h_out = _weighted(_apply(hv, s_a, s_b, OP), w_ptr, head_lanes, h_ok, HAS_W)
            tl.store(out_ptr + o_base + head_lanes, h_out.to(out_ptr.dtype.element_ty), mask=h_ok)
            for c in tl.range(0, n_full):
                if REVERSE:
                    k = n_full - 1 - c
                else:
                    k = c
                v = tl.load(x_ptr + body + k * BLOCK + lanes, eviction_policy="evict_first").to(tl.float32)
                r = _weighted(_apply(v, s_a, s_b, OP), w_ptr, head + k * BLOCK + lanes, lanes < BLOCK,
                              HAS_W)
                tl.store(out_ptr + obody + k * BLOCK + lanes, r.to(out_ptr.dtype.element_ty))
        else:
            s_a, s_b = _stats_walk(x_ptr + x_base, n_cols, lanes, init, OP, BLOCK)
            if _sums(OP):
                s_a = _divisor(s_a, n_cols, OP, MEAN, EPS, CLAMP)
            _apply_walk(x_ptr + x_base, out_ptr + o_base, w_ptr, n_cols, lanes, s_a, s_b, OP, BLOCK,
                        REVERSE, HAS_W)

@triton.jit
def _combine(part_a, part_b, OP: tl.constexpr):
    """The row's statistics from its chunks' partial ones (vectors of the split's size)."""
    if _sums(OP):
        return tl.sum(part_a, 0), 0.0
    row_max = tl.max(part_a, 0)
    scale = tl.where(part_a == float("-inf"), 0.0, tl.exp(part_a - row_max))
    return row_max, tl.sum(part_b * scale, 0)


@triton.jit
def _row_barrier(count_ptr, row, SPLIT: tl.constexpr):
    """Waits until the SPLIT programs of a row have arrived; their stores before the call are then
    visible (read them with .cg loads). Every thread's stores come before thread 0's release; the
    spin's loads acquire. SPLIT 1: only the program's own threads are ordered."""
    tl.debug_barrier()
    if SPLIT > 1:
        tl.atomic_add(count_ptr + row, 1, sem="release", scope="gpu")
        seen = tl.atomic_add(count_ptr + row, 0, sem="acquire", scope="gpu")
        while seen < SPLIT:
            seen = tl.atomic_add(count_ptr + row, 0, sem="acquire", scope="gpu")
        tl.debug_barrier()


@triton.jit
def _split_slot(chunk, n_cols, SPLIT: tl.constexpr):
    """This program's place in a split grid: its chunk of a row (part), its first row (slot), the
    row step (n_slots), and the chunk's columns [lo, hi) (empty past the row's end)."""
    pid = tl.program_id(0)
    part = pid % SPLIT
    lo = part * chunk
    hi = tl.maximum(tl.minimum(lo + chunk, n_cols), lo)
    return part, pid // SPLIT, tl.num_programs(0) // SPLIT, lo, hi


@triton.jit
def _row_split(x_ptr, out_ptr, w_ptr, part_ptr, count_ptr, n_rows, n_cols, x_row, out_row, chunk,
               OP: tl.constexpr, BLOCK: tl.constexpr, SPLIT: tl.constexpr, SPLIT_P2: tl.constexpr,
               REVERSE: tl.constexpr, MEAN: tl.constexpr, EPS: tl.constexpr, CLAMP: tl.constexpr,
               HAS_W: tl.constexpr, PHASE: tl.constexpr):
    """SPLIT programs per row, program pid taking chunk pid % SPLIT of rows pid // SPLIT,
    + grid / SPLIT, ... PHASE 0: both passes with a barrier among a row's programs; 1: the
    partial statistics only; 2: the output from them."""
    part, slot, n_slots, lo, hi = _split_slot(chunk, n_cols, SPLIT)
    lanes = tl.arange(0, BLOCK)
    parts = tl.arange(0, SPLIT_P2)
    init = 0.0 if _sums(OP) else float("-inf")
    for i in tl.range(0, tl.cdiv(n_rows - slot, n_slots)):
        row = slot.to(tl.int64) + i * n_slots
        x_base = x_ptr + row * x_row + lo
        o_base = out_ptr + row * out_row + lo
        stats = part_ptr + row * (2 * SPLIT)
        if PHASE != 2:
            s_a, s_b = _stats_walk(x_base, hi - lo, lanes, init, OP, BLOCK)
            tl.store(stats + part, s_a)
            tl.store(stats + SPLIT + part, s_b)
        if PHASE == 0:
            _row_barrier(count_ptr, row, SPLIT)
        if PHASE != 1:
            # .cg: read the partials from L2, not from a stale L1 line.
            p_a = tl.load(stats + parts, mask=parts < SPLIT, other=init, cache_modifier=".cg")
            p_b = tl.load(stats + SPLIT + parts, mask=parts < SPLIT, other=0.0, cache_modifier=".cg")
            s_a, s_b = _combine(p_a, p_b, OP)
            if _sums(OP):
                s_a = _divisor(s_a, n_cols, OP, MEAN, EPS, CLAMP)
            _apply_walk(x_base, o_base, w_ptr + lo, hi - lo, lanes, s_a, s_b, OP, BLOCK, REVERSE, HAS_W)


def _sm_count(device):
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).multi_processor_count
    return 4  # the interpreter and the meta device: any positive count is correct


def matches(x, out):
    """Why the recipe cannot take (x, out), or None: 2-D views with contiguous rows, same shape,
    float dtypes."""
    if x.dim() != 2 or out.shape != x.shape:
        return "expects 2-D input and output of the same shape"
    if x.shape[1] > 1 and (x.stride(1) != 1 or out.stride(1) != 1):
        return "rows must be contiguous"
    if not (x.dtype.is_floating_point and out.dtype.is_floating_point):
        return "float dtypes only"
    return None


def reference(x, op, mean=False, eps=0.0, clamp=0.0, weight=None):
    """op over the last dimension of x in float64, as PyTorch computes it (a normalization with
    the forms of `norm_divisor`)."""
    x = x.double()
    if op in ("softmax", "log_softmax"):
        return torch.softmax(x, -1) if op == "softmax" else torch.log_softmax(x, -1)
    stat = x * x if op == "l2_normalize" else x.abs()
    mean = mean or op == "l1_mean_normalize"
    d = stat.mean(-1, keepdim=True) if mean else stat.sum(-1, keepdim=True)
    d = (d + eps).sqrt() if op == "l2_normalize" else d + eps
    out = x / d.clamp_min(clamp) if clamp else x / d
    return out if weight is None else out * weight.double()


def _interpreted(device):
    return device.type != "cuda" or os.environ.get("TRITON_INTERPRET") == "1"


def _resident_per_sm(compiled, num_warps, device):
    """How many programs of a compiled kernel one SM holds at once (registers, shared memory,
    threads), or 0 when the compiled kernel does not say."""
    if hasattr(compiled, "result"):  # a future, when Triton compiles in the background
        compiled = compiled.result()
    if getattr(compiled, "module", None) is None and hasattr(compiled, "_init_handles"):
        compiled._init_handles()  # loads the binary: its register count is known then
    n_regs = getattr(compiled, "n_regs", None)
    shared = getattr(getattr(compiled, "metadata", None), "shared", None)
    if not n_regs or shared is None:
        return 0
    props = triton.runtime.driver.active.utils.get_device_properties(device.index or 0)
    # Registers are allocated per warp in units of 256.
    warp_regs = -(-n_regs * 32 // 256) * 256
    by_regs = 65536 // (warp_regs * num_warps)
    by_smem = props["max_shared_mem"] // shared if shared > 0 else 32
    by_threads = 2048 // (32 * num_warps)
    return max(0, min(by_regs, by_smem, by_threads, 32))


def auto_split(n_cols, element_size, programs, l2_bytes):
    """Programs per row such that the rows in flight (programs / split of them, a chunk each)
    take at most half of L2."""
    row = n_cols * element_size
    split = -(-programs * row // max(l2_bytes // 2, 1))
    return max(1, min(split, programs, -(-n_cols // 256)))


def split_rows(row_len, element_size, block, split, programs, device):
    """(split, chunk) for rows of row_len elements: split 0 becomes auto_split's (from the GPU's
    L2; 1 MB off the GPU), the chunk a whole number of blocks, and the split what that chunk
    needs (no empty chunks)."""
    if split == 0:
        l2 = torch.cuda.get_device_properties(device).L2_cache_size if device.type == "cuda" else 1 << 20
        split = auto_split(row_len, element_size, programs, l2)
    chunk = triton.cdiv(triton.cdiv(row_len, split), block) * block
    return triton.cdiv(row_len, chunk), chunk


def launch_split(kernel, head, partials, scalars, consts, n_rows, split, num_warps, programs_per_sm,
                 device):
    """Launches a split-row kernel, kernel(*head, part_ptr, count_ptr, *scalars, PHASE, **consts).
    On a GPU: one launch whose row programs meet at a barrier, when the grid fits what the compiled
    kernel keeps resident (split 1: persistent programs, none waits); else, and under the
    interpreter, two launches (PHASE 1 then 2) in which no program waits. Records last_split."""
    global last_split
    grid = 0
    counts = partials  # unused by SPLIT 1 and by the two launches
    if not _interpreted(device):
        if split == 1:
            grid = min(n_rows, max(programs_per_sm, 1) * _sm_count(device))
        else:
            counts = torch.zeros(n_rows, dtype=torch.int32, device=device)
            try:
                compiled = kernel.warmup(*head, partials, counts, *scalars, PHASE=0, grid=(1,), **consts)
                resident = min(max(programs_per_sm, 1), _resident_per_sm(compiled, num_warps, device))
            except Exception:  # noqa: BLE001 - no occupancy known: two launches, which cannot hang
                resident = 0
            grid = min(n_rows * split, resident * _sm_count(device)) // split * split
    if grid >= split and grid > 0:
        kernel[(grid,)](*head, partials, counts, *scalars, PHASE=0, **consts)
        last_split = (split, grid, "barrier")
    else:
        if device.type == "meta" and split > 1:
            # The static gate (meta tensors, launches intercepted as compiles): the barrier's
            # phase must compile too, as it runs on the GPU.
            kernel[(n_rows * split,)](*head, partials, counts, *scalars, PHASE=0, **consts)
        kernel[(n_rows * split,)](*head, partials, counts, *scalars, PHASE=1, **consts)
        kernel[(n_rows * split,)](*head, partials, counts, *scalars, PHASE=2, **consts)
        last_split = (split, n_rows * split, "two launches")


def _row_split_launch(x, out, op, block, num_warps, programs_per_sm, reverse, split, norm):
    n_rows, n_cols = x.shape
    split, chunk = split_rows(n_cols, x.element_size(), block, split,
                              max(programs_per_sm, 1) * _sm_count(x.device), x.device)
    if split == 1:
        return None
    partials = torch.empty(n_rows * 2 * split, dtype=torch.float32, device=x.device)
    consts = dict(OP=op, BLOCK=block, SPLIT=split, SPLIT_P2=triton.next_power_of_2(split),
                  REVERSE=bool(reverse), num_warps=num_warps, **norm.consts)
    launch_split(_row_split, (x, out, norm.weight), partials, (n_rows, n_cols, x.stride(0), out.stride(0), chunk),
                 consts, n_rows, split, num_warps, programs_per_sm, x.device)
    return out


def check_constants(eps, clamp, who):
    """A normalization's eps and clamp must be finite numbers >= 0 (0: none); a ValueError starting
    with `who` otherwise."""
    for name, value in (("eps", eps), ("clamp", clamp)):
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
            raise ValueError(f"{who}: {name} must be a finite number >= 0, got {value!r}")


class _Norm:
    """A normalization's forms (`norm_divisor`) as kernel constants, and its weight pointer (x
    itself where there is none: the kernels then never read it)."""

    def __init__(self, x, op, mean, eps, clamp, weight):
        plain = not mean and eps == 0.0 and clamp == 0.0 and weight is None
        if not plain and op not in ("l2_normalize", "l1_normalize"):
            raise ValueError(f"row_two_pass: mean, eps, clamp and weight are for l2_normalize and "
                             f"l1_normalize, not {op!r}")
        check_constants(eps, clamp, "row_two_pass")
        if weight is not None and (weight.dim() != 1 or weight.shape[0] != x.shape[1]
                                   or weight.stride(0) != 1 or not weight.dtype.is_floating_point):
            raise ValueError("row_two_pass: the weight must be a contiguous float vector as long as a row")
        self.weight = x if weight is None else weight
        self.consts = dict(MEAN=bool(mean), EPS=float(eps), CLAMP=float(clamp), HAS_W=weight is not None)


def row_two_pass(x, out, op, block=2048, num_warps=8, programs_per_sm=1, reverse=True, aligned=True,
                 split=1, *, mean=False, eps=0.0, clamp=0.0, weight=None):
    """out = op(x) over the last dimension of a 2-D x (rows contiguous). programs_per_sm = 0 gives
    one program per row (no persistent loop). split: programs per row (0: as many as keep the
    rows in flight within half of L2; 1: a row per program). For l2_normalize and l1_normalize:
    divide by the statistic's mean instead of its sum (`mean`), add `eps` to it before the root,
    clamp the divisor to at least `clamp`, multiply by `weight` (one value per column)."""
    if op not in OPS:
        raise ValueError(f"unknown op {op!r}; one of {OPS}")
    if not isinstance(split, int) or split < 0:
        raise ValueError(f"row_two_pass: split must be a non-negative int, got {split!r}")
    why = matches(x, out)
    if why:
        raise ValueError(why)
    norm = _Norm(x, op, mean, eps, clamp, weight)
    n_rows, n_cols = x.shape
    if n_rows == 0 or n_cols == 0:
        return out
    if split != 1 and _row_split_launch(x, out, op, block, num_warps, programs_per_sm, reverse,
                                        split, norm) is not None:
        return out
    # The split into head/body/tail needs both rows in the same 16-byte phase, in 4-byte elements.
    aligned = bool(aligned and x.element_size() == 4 and out.element_size() == 4
                   and x.stride(0) == out.stride(0)
                   and x.data_ptr() % 16 == 0 and out.data_ptr() % 16 == 0)
    if programs_per_sm > 0:
        grid = min(n_rows, programs_per_sm * _sm_count(x.device))
    else:
        grid = n_rows
    _row_two_pass[(grid,)](x, out, norm.weight, n_rows, n_cols, x.stride(0), out.stride(0), OP=op,
                           BLOCK=block, REVERSE=bool(reverse), ALIGNED=aligned, num_warps=num_warps,
                           **norm.consts)
    return out


def launch(inputs, outputs, params, settings):
    """A candidate's call (params: the match's op; settings: block, warps, programs per SM, the
    walk's direction and the programs per row)."""
    (x,) = inputs.values()
    (out,) = outputs.values()
    n = x.shape[-1]
    row_two_pass(x.view(-1, n), out.view(-1, n), params["op"], settings.get("block", 2048),
                 settings.get("num_warps", 8), settings.get("programs_per_sm", 1),
                 settings.get("reverse", 1), split=settings.get("split", 1))
