"""Max and average pooling over the last 1, 2 or 3 dimensions (any kernel, stride, padding,
dilation for max; ceil_mode through the output's shape; for average, count_include_pad and
divisor_override as PyTorch has them), of a contiguous float input: the values, not the indices.

The input is seen as [R, D, H, W] (R: the leading dimensions; D and H are 1 when pooling over fewer
dimensions) and the output as [R, Do, Ho, Wo]. Each program owns ROWS output rows (an (r, d, h)
each) and BLOCK contiguous output columns; the window's taps are compile-time loops, so each tap is
one [ROWS, BLOCK] load of neighbouring input columns (contiguous when the stride is 1). No index
division per element, as Inductor's flat kernel does: the row decomposition is per row, once, and
the programs whose columns read no padding (most of them) load without per-column bounds. Max: NaN
propagates as in PyTorch (one max.NaN per tap) and padding counts as -inf. Average: sums in float32; the divisor is
the window clipped to the padded input (count_include_pad) or to the input, as PyTorch's kernels.

`sliding` (max pooling with stride 1 along the last dimension and a window of a power of two
there, any dilation): the last dimension's taps are not loaded one by one (KW loads an output,
each misaligned by the dilation: L1/41's window of 8 reads every input element eight times from
L1). With j = i - padding = dilation * q + r, output i's window is y_r[q .. q + KW - 1] of the
phase y_r[m] = x[dilation * m + r]. A program takes Q consecutive q of every phase: two loads of a
[Q, phases] tile, A = y[q0 + qq] and B = y[q0 + qq + KW - 1], each cut into blocks of KW along q;
the window's max is max(suffix max of A's block from qq, prefix max of B's block up to qq), two
scans (van Herk and Gil-Werman's running max). Every input element is loaded twice, whatever KW.
"""

import triton
import triton.language as tl


@triton.jit
def _window(o, S: tl.constexpr, P: tl.constexpr, K: tl.constexpr, size, COUNT_PAD: tl.constexpr):
    """How many taps of output position o's window PyTorch's average counts (as float32)."""
    start = o * S - P
    end = tl.minimum(start + K, size + P)
    if COUNT_PAD:
        return (end - start).to(tl.float32)
    return (tl.minimum(end, size) - tl.maximum(start, 0)).to(tl.float32)


@triton.jit
def _taps(acc, base, d, h, cols, row_ok, col_ok, d_in, h_in, w_in,
          SD: tl.constexpr, SH: tl.constexpr, SW: tl.constexpr,
          PD: tl.constexpr, PH: tl.constexpr, PW: tl.constexpr,
          DD: tl.constexpr, DH: tl.constexpr, DW: tl.constexpr,
          KD: tl.constexpr, KH: tl.constexpr, KW: tl.constexpr,
          AVG: tl.constexpr, INTERIOR: tl.constexpr):
    """acc combined with every tap of the window. INTERIOR: every tap of the program's columns is
    inside the input, so a load's mask is only its row's (constant along the columns)."""
    for kd in tl.static_range(KD):
        di = d * SD - PD + kd * DD
        d_ok = (di >= 0) & (di < d_in) & row_ok
        for kh in tl.static_range(KH):
            hi = h * SH - PH + kh * DH
            dh_ok = d_ok & (hi >= 0) & (hi < h_in)
            row_base = base + (di.to(tl.int64) * h_in + hi) * w_in
            for kw in tl.static_range(KW):
                wi = cols * SW - PW + kw * DW
                if INTERIOR:
                    ok = dh_ok[:, None]
                else:
                    ok = dh_ok[:, None] & ((wi >= 0) & (wi < w_in) & col_ok)[None, :]
                if AVG:
                    acc += tl.load(row_base[:, None] + wi[None, :], mask=ok, other=0.0).to(tl.float32)
                else:
                    v = tl.load(row_base[:, None] + wi[None, :], mask=ok, other=float("-inf")).to(tl.float32)
                    acc = tl.maximum(acc, v, propagate_nan=tl.PropagateNan.ALL)
    return acc


@triton.jit
def _pool(x_ptr, out_ptr, n_rows, d_in, h_in, w_in, d_out, h_out, w_out, n_col_blocks,
          SD: tl.constexpr, SH: tl.constexpr, SW: tl.constexpr,
          PD: tl.constexpr, PH: tl.constexpr, PW: tl.constexpr,
          DD: tl.constexpr, DH: tl.constexpr, DW: tl.constexpr,
          KD: tl.constexpr, KH: tl.constexpr, KW: tl.constexpr,
          ROWS: tl.constexpr, BLOCK: tl.constexpr, AVG: tl.constexpr = False,
          COUNT_PAD: tl.constexpr = True, DIVISOR: tl.constexpr = 0):
    pid = tl.program_id(0)
    row_block = pid // n_col_blocks
    col_block = pid % n_col_blocks
    rows = row_block * ROWS + tl.arange(0, ROWS)
    row_ok = rows < n_rows
    h = rows % h_out
    d = (rows // h_out) % d_out
    r = (rows // h_out // d_out).to(tl.int64)
    first = col_block * BLOCK
    cols = first + tl.arange(0, BLOCK)
    col_ok = cols < w_out
    base = x_ptr + r * d_in * h_in * w_in
    if AVG:
        acc = tl.zeros([ROWS, BLOCK], tl.float32)
    else:
        acc = tl.full([ROWS, BLOCK], float("-inf"), tl.float32)
    # Most programs' columns read no padding: they skip the per-column bounds of every tap.
    last = first + BLOCK - 1
    if (first * SW - PW >= 0) & (last * SW - PW + (KW - 1) * DW < w_in) & (last < w_out):
        acc = _taps(acc, base, d, h, cols, row_ok, col_ok, d_in, h_in, w_in, SD, SH, SW, PD, PH, PW,
                    DD, DH, DW, KD, KH, KW, AVG, True)
    else:
        acc = _taps(acc, base, d, h, cols, row_ok, col_ok, d_in, h_in, w_in, SD, SH, SW, PD, PH, PW,
                    DD, DH, DW, KD, KH, KW, AVG, False)
    if AVG:
        if DIVISOR > 0:
            acc = acc / DIVISOR
        else:
            taps_dh = _window(d, SD, PD, KD, d_in, COUNT_PAD) * _window(h, SH, PH, KH, h_in, COUNT_PAD)
            acc = acc / (taps_dh[:, None] * _window(cols, SW, PW, KW, w_in, COUNT_PAD)[None, :])
    out = out_ptr + rows.to(tl.int64)[:, None] * w_out + cols[None, :]
    tl.store(out, acc.to(out_ptr.dtype.element_ty), mask=row_ok[:, None] & col_ok[None, :])


@triton.jit
def _max_nan(a, b):
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def _sliding_pool(x_ptr, out_ptr, n_rows, d_in, h_in, w_in, d_out, h_out, w_out, n_col_blocks, q_first,
                  SD: tl.constexpr, SH: tl.constexpr,
                  PD: tl.constexpr, PH: tl.constexpr, PW: tl.constexpr,
                  DD: tl.constexpr, DH: tl.constexpr, DW: tl.constexpr,
                  KD: tl.constexpr, KH: tl.constexpr, KW: tl.constexpr,
                  Q: tl.constexpr, PHASES: tl.constexpr):
    """Max pooling with stride 1 along W: one output row a program, Q windows of each of the DW
    phases (PHASES: DW rounded up to a power of two; the extra phases are masked)."""
    pid = tl.program_id(0)
    row = pid // n_col_blocks
    col_block = pid % n_col_blocks
    h = row % h_out
    d = (row // h_out) % d_out
    r = (row // h_out // d_out).to(tl.int64)
    base = x_ptr + r * d_in * h_in * w_in
    q = q_first + col_block * Q + tl.arange(0, Q)
    phase = tl.arange(0, PHASES)
    phase_ok = phase < DW
    cols_a = (DW * q)[:, None] + phase[None, :]   # y[q]: the first tap of q's window
    cols_b = cols_a + DW * (KW - 1)               # y[q + KW - 1]: its last tap
    ok_a = phase_ok[None, :] & (cols_a >= 0) & (cols_a < w_in)
    ok_b = phase_ok[None, :] & (cols_b >= 0) & (cols_b < w_in)
    acc = tl.full([Q, PHASES], float("-inf"), tl.float32)
    for kd in tl.static_range(KD):
        di = d * SD - PD + kd * DD
        for kh in tl.static_range(KH):
            hi = h * SH - PH + kh * DH
            tap_ok = (di >= 0) & (di < d_in) & (hi >= 0) & (hi < h_in) & (row < n_rows)
            row_base = base + (di.to(tl.int64) * h_in + hi) * w_in
            a = tl.load(row_base + cols_a, mask=ok_a & tap_ok, other=float("-inf")).to(tl.float32)
            b = tl.load(row_base + cols_b, mask=ok_b & tap_ok, other=float("-inf")).to(tl.float32)
            a = tl.associative_scan(tl.reshape(a, [Q // KW, KW, PHASES]), 1, _max_nan, reverse=True)
            b = tl.associative_scan(tl.reshape(b, [Q // KW, KW, PHASES]), 1, _max_nan)
            acc = _max_nan(acc, tl.reshape(_max_nan(a, b), [Q, PHASES]))
    cols_out = cols_a + PW
    ok = phase_ok[None, :] & (cols_out >= 0) & (cols_out < w_out) & (row < n_rows)
    tl.store(out_ptr + row.to(tl.int64) * w_out + cols_out, acc.to(out_ptr.dtype.element_ty), mask=ok)


def _per_dim(value, dims):
    """An int or a list of one or `dims` ints, as `dims` ints."""
    values = [value] if isinstance(value, int) else list(value)
    values = values * dims if len(values) == 1 else values
    if len(values) != dims:
        raise ValueError(f"pool: expected {dims} values, got {values}")
    return values


def output_size(size, kernel, stride, padding, dilation, ceil_mode):
    """PyTorch's pooled length of one dimension."""
    span = size + 2 * padding - dilation * (kernel - 1) - 1
    out = (span + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1  # the last window would start in the right padding
    return out


def max_pool(x, out, kernel, stride=None, padding=0, dilation=1, rows=4, block=256, num_warps=4,
             ceil_mode=None, sliding=0):
    """out = max_pool{1,2,3}d(x, kernel, stride, padding, dilation) over the last len(kernel) dims.
    With ceil_mode None, out's trailing dims are the output size; with True/False the size is
    computed as PyTorch does and out (contiguous, of that many elements) is viewed to it. With
    sliding (stride 1 and a power-of-two window along the last dim), the running-max form: one
    output row a program, `block` windows of each phase (rows is not used)."""
    return _launch(x, out, kernel, stride, padding, dilation, rows, block, num_warps, ceil_mode, {},
                   sliding)


def avg_pool(x, out, kernel, stride=None, padding=0, ceil_mode=None, count_include_pad=True,
             divisor_override=None, rows=4, block=256, num_warps=4):
    """out = avg_pool{1,2,3}d(x, kernel, stride, padding, ceil_mode, count_include_pad,
    divisor_override) over the last len(kernel) dims; out as for max_pool."""
    if divisor_override is not None and (not isinstance(divisor_override, int) or divisor_override <= 0):
        raise ValueError(f"avg_pool: divisor_override must be a positive int, got {divisor_override!r}")
    avg = {"AVG": True, "COUNT_PAD": bool(count_include_pad), "DIVISOR": divisor_override or 0}
    return _launch(x, out, kernel, stride, padding, 1, rows, block, num_warps, ceil_mode, avg)


def _launch(x, out, kernel, stride, padding, dilation, rows, block, num_warps, ceil_mode, avg,
            sliding=0):
    name = "avg_pool" if avg else "max_pool"
    kernel = list(kernel) if isinstance(kernel, (list, tuple)) else [kernel]
    dims = len(kernel)
    if dims not in (1, 2, 3) or x.dim() < dims + 1:
        raise ValueError(f"{name}: pools 1-3 trailing dimensions of a tensor with leading ones")
    if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0):
        stride = kernel
    stride, padding, dilation = (_per_dim(v, dims) for v in (stride, padding, dilation))
    if ceil_mode is not None:
        sizes = [output_size(x.shape[x.dim() - dims + i], kernel[i], stride[i], padding[i], dilation[i],
                             ceil_mode) for i in range(dims)]
        if not out.is_contiguous():
            raise ValueError(f"{name}: contiguous input and output only")
        out = out.view(*x.shape[:-dims], *sizes)
    if out.dim() != x.dim():
        raise ValueError(f"{name}: pools 1-3 trailing dimensions of a tensor with leading ones")
    if out.shape[:-dims] != x.shape[:-dims]:
        raise ValueError(f"{name}: input and output leading dimensions differ")
    if not (x.is_contiguous() and out.is_contiguous()):
        raise ValueError(f"{name}: contiguous input and output only")
    if not (x.dtype.is_floating_point and out.dtype.is_floating_point):
        raise ValueError(f"{name}: float dtypes only")
    # As three dimensions (D, H, W): the missing leading ones have size 1 and a window of 1.
    k, s, p, dl = ([fill] * (3 - dims) + values
                   for values, fill in ((kernel, 1), (stride, 1), (padding, 0), (dilation, 1)))
    spatial_in = [1] * (3 - dims) + list(x.shape[-dims:])
    spatial_out = [1] * (3 - dims) + list(out.shape[-dims:])
    for i in range(3):
        # Every output position must have a window that starts inside the padded input.
        if spatial_out[i] > 0 and (spatial_out[i] - 1) * s[i] - p[i] >= spatial_in[i] + p[i]:
            raise ValueError(f"{name}: output size {spatial_out} does not fit the input {spatial_in}")
    n_rows = out.numel() // max(spatial_out[2], 1)
    if out.numel() == 0:
        return out
    if sliding:
        if avg or s[2] != 1 or k[2] < 2 or k[2] & (k[2] - 1):
            raise ValueError(f"{name}: the sliding form takes max pooling with stride 1 and a "
                             f"power-of-two window along the last dim, not {k} / {s}")
        q_block = max(triton.next_power_of_2(block), k[2])
        phases = triton.next_power_of_2(dl[2])
        # j = i - padding = dilation * q + phase: the q of outputs 0 .. w_out - 1.
        q_first = (-p[2]) // dl[2]
        q_last = (spatial_out[2] - 1 - p[2]) // dl[2]
        n_col_blocks = triton.cdiv(q_last - q_first + 1, q_block)
        _sliding_pool[(n_rows * n_col_blocks,)](
            x, out, n_rows, *spatial_in, *spatial_out, n_col_blocks, q_first,
            SD=s[0], SH=s[1], PD=p[0], PH=p[1], PW=p[2], DD=dl[0], DH=dl[1], DW=dl[2],
            KD=k[0], KH=k[1], KW=k[2], Q=q_block, PHASES=phases, num_warps=num_warps)
        return out
    n_col_blocks = triton.cdiv(spatial_out[2], block)
    grid = (triton.cdiv(n_rows, rows) * n_col_blocks,)
    _pool[grid](x, out, n_rows, *spatial_in, *spatial_out, n_col_blocks,
                    SD=s[0], SH=s[1], SW=s[2], PD=p[0], PH=p[1], PW=p[2], DD=dl[0], DH=dl[1], DW=dl[2],
                    KD=k[0], KH=k[1], KW=k[2], ROWS=rows, BLOCK=block, num_warps=num_warps, **avg)
    return out


def launch(inputs, outputs, params, settings):
    """A candidate's call (params: x by name, the dim a 1-D pool unsqueezes, op and the pool's
    arguments; settings: rows, block, warps, and the sliding walk for max)."""
    x = inputs[params["x"]]
    if params.get("unsqueeze") is not None:
        x = x.unsqueeze(params["unsqueeze"])
    (out,) = outputs.values()
    tiles = {"rows": settings.get("rows", 4), "block": settings.get("block", 256),
             "num_warps": settings.get("num_warps", 4)}
    if params["op"] == "avg":
        avg_pool(x, out, params["kernel"], params["stride"], params["padding"], params["ceil_mode"],
                 params["count_include_pad"], params["divisor_override"], **tiles)
        return
    sliding = {"sliding": 1} if settings.get("sliding", 0) != 0 else {}
    max_pool(x, out, params["kernel"], params["stride"], params["padding"], params["dilation"],
             ceil_mode=params["ceil_mode"], **tiles, **sliding)
