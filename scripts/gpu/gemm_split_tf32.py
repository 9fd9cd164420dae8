"""Float32 matrix products on the tensor cores with float32 accuracy, measured before building on it.
Triton's own "tf32x3" is slower than the CUDA-core product on the H200 (results/recipes/). This
asks why, and whether splitting the operands by hand does better: each float32 operand x becomes
hi = x rounded to TF32 (nearest, 11 significant bits) and lo = x - hi (exact in float32), and the
product is lo_a*hi_b + hi_a*lo_b + hi_a*hi_b, three TF32 tensor-core products (the lo*lo term,
2^-22 of the result, is dropped). Modes per tile:
  ieee    tl.dot in full float32 (what Inductor's templates use when PyTorch keeps float32 products
          in full precision)
  tf32    one TF32 product (a speed reference only: 10 mantissa bits, never offered)
  tf32x3  Triton's own three-product mode
  split   the hand split above, in the kernel, on each loaded tile
Each (shape, mode, tile, epilogue): the largest error against a float64 product (absolute, relative to the
largest magnitude of the result, and the largest elementwise relative error), and the time against
cuBLAS in full float32 (interleaved do_bench medians, bootstrap 95% interval of the ratio).
Writes JSON lines to OUT (flushed per case).
usage: python3 scripts/gpu/gemm_split_tf32.py OUT.jsonl [--samples N] [--shapes i,j,...]"""

import argparse
import json
import time

import torch
import triton
import triton.language as tl

from settings_lib import interleaved


@triton.jit
def _round_tf32(x):
    # Nearest TF32 (ties away from zero): add half of the 13 dropped bits, clear them. Inf stays
    # inf; a NaN stays a NaN or becomes inf, and its lo part (x - hi) is NaN either way.
    bits = x.to(tl.int32, bitcast=True)
    bits = (bits + 0x1000) & -8192
    return bits.to(tl.float32, bitcast=True)


@triton.jit
def _tile_product(a_ptr, b_ptr, M, N, K, sam, sak, sbk, sbn, pid_m, pid_n, MODE: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)).to(tl.int64)
    rn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)).to(tl.int64)
    rk = tl.arange(0, BLOCK_K).to(tl.int64)
    m_ok = rm < M
    n_ok = rn < N
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in range(0, K, BLOCK_K):
        k_ok = (rk + k) < K
        av = tl.load(a, mask=m_ok[:, None] & k_ok[None, :], other=0.0)
        bv = tl.load(b, mask=k_ok[:, None] & n_ok[None, :], other=0.0)
        if MODE == 0:
            acc = tl.dot(av, bv, acc, input_precision="ieee")
        elif MODE == 1:
            acc = tl.dot(av, bv, acc, input_precision="tf32")
        elif MODE == 2:
            acc = tl.dot(av, bv, acc, input_precision="tf32x3")
        else:
            a_hi = _round_tf32(av)
            b_hi = _round_tf32(bv)
            acc = tl.dot(av - a_hi, b_hi, acc, input_precision="tf32")
            acc = tl.dot(a_hi, bv - b_hi, acc, input_precision="tf32")
            acc = tl.dot(a_hi, b_hi, acc, input_precision="tf32")
        a += BLOCK_K * sak
        b += BLOCK_K * sbk
    return acc, rm, rn, m_ok, n_ok


@triton.jit
def _mm(a_ptr, b_ptr, c_ptr, c_desc, M, N, K, sam, sak, sbk, sbn, scm, scn,
        MODE: tl.constexpr, TMA: tl.constexpr, PERSISTENT: tl.constexpr, BLOCK_M: tl.constexpr,
        BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * tiles_n
    if PERSISTENT:
        first, step = tl.program_id(0), tl.num_programs(0)
    else:
        first, step = tl.program_id(0), tiles_m * tiles_n
    for pid in tl.range(first, tiles_m * tiles_n, step, flatten=False):
        first_m = (pid // in_group) * GROUP_M
        group_m = tl.minimum(tiles_m - first_m, GROUP_M)
        pid_m = first_m + (pid % in_group) % group_m
        pid_n = (pid % in_group) // group_m
        acc, rm, rn, m_ok, n_ok = _tile_product(a_ptr, b_ptr, M, N, K, sam, sak, sbk, sbn, pid_m,
                                                pid_n, MODE, BLOCK_M, BLOCK_N, BLOCK_K)
        if TMA:
            # The tile in two halves of BLOCK_N / 2 columns through shared memory (TMA clips
            # what lies outside the output).
            halves = tl.reshape(acc, (BLOCK_M, 2, BLOCK_N // 2))
            left, right = tl.split(tl.permute(halves, (0, 2, 1)))
            c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], left)
            c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N + BLOCK_N // 2], right)
        else:
            c = c_ptr + rm[:, None] * scm + rn[None, :] * scn
            tl.store(c, acc, mask=m_ok[:, None] & n_ok[None, :])


MODES = {"ieee": 0, "tf32": 1, "tf32x3": 2, "split": 3}
SMS = None


def mm(a, b, c, mode, bm, bn, bk, warps, stages, tma=False, persistent=False, group_m=8):
    global SMS
    from triton.tools.tensor_descriptor import TensorDescriptor

    m, k = a.shape
    n = b.shape[1]
    tiles = triton.cdiv(m, bm) * triton.cdiv(n, bn)
    if SMS is None:
        SMS = torch.cuda.get_device_properties(0).multi_processor_count
    grid = (min(tiles, SMS * persistent) if persistent else tiles,)
    desc = TensorDescriptor.from_tensor(c, [bm, bn // 2]) if tma else None
    _mm[grid](a, b, c, desc, m, n, k, *a.stride(), *b.stride(), *c.stride(), MODE=MODES[mode],
              TMA=tma, PERSISTENT=bool(persistent), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
              GROUP_M=group_m, num_warps=warps, num_stages=stages)


# (M, K, N). The first three are the odd L1 problems 7, 9 and 11 (11's einsum as one product of
# its rows); the rest are not KernelBench shapes.
SHAPES = [(32768, 64, 32768), (32768, 32, 32768), (1048576, 256, 768), (20000, 48, 24000),
          (24000, 200, 640), (4096, 4096, 4096)]
# (mode, BLOCK_M, BLOCK_N, BLOCK_K, warps, stages, TMA store, persistent: programs per SM or 0)
CASES = [("ieee", 128, 256, 32, 8, 3, False, 0),
         ("tf32", 256, 128, 32, 8, 3, False, 0),
         ("tf32", 256, 128, 32, 8, 2, True, 1),
         ("tf32", 128, 256, 32, 8, 3, True, 2)]
for tile in ((256, 128, 32, 8, 3), (128, 256, 32, 8, 3), (128, 128, 32, 8, 3),
             (256, 128, 32, 8, 2), (128, 128, 32, 4, 3)):
    for tma, persistent in ((False, 0), (True, 0), (True, 1), (True, 2), (False, 1)):
        CASES.append(("split", *tile, tma, persistent))

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--samples", type=int, default=3)
parser.add_argument("--shapes", default=",".join(str(i) for i in range(len(SHAPES))))
parser.add_argument("--seconds", type=float, default=240, help="stop starting cases after this")
cli = parser.parse_args()
out = open(cli.out, "w")
torch.manual_seed(0)
torch.backends.cuda.matmul.allow_tf32 = False
start = time.time()
print(torch.cuda.get_device_name(), torch.__version__, triton.__version__, flush=True)


def errors(a, b, c, rows=4096):
    """Against a float64 product, a block of rows at a time (the whole of it would not fit)."""
    err = rel = 0.0
    fail = 0
    scale = 0.0
    for i in range(0, a.shape[0], rows):
        ref = a[i:i + rows].double() @ b.double()
        diff = (c[i:i + rows].double() - ref).abs()
        scale = max(scale, ref.abs().max().item())
        err = max(err, diff.max().item())
        rel = max(rel, (diff / ref.abs().clamp_min(1e-30)).max().item())
        fail += int((diff > 1e-4 + 1e-4 * ref.abs()).sum().item())
    return {"err": err / scale, "rel": rel, "fail_1e-4": fail}


for index in (int(i) for i in cli.shapes.split(",")):
    m, k, n = SHAPES[index]
    a = torch.rand(m, k, device="cuda")
    b = torch.rand(k, n, device="cuda")
    cublas = torch.empty(m, n, device="cuda")
    c = torch.empty_like(cublas)
    torch.mm(a, b, out=cublas)
    row = {"shape": [m, k, n], "cublas": errors(a, b, cublas), "cases": []}
    for mode, bm, bn, bk, warps, stages, tma, persistent in CASES:
        if time.time() - start > cli.seconds:
            break
        bk = min(bk, max(16, triton.next_power_of_2(k)))
        case = {"mode": mode, "tile": [bm, bn, bk, warps, stages], "tma": tma,
                "persistent": persistent}
        run = lambda: mm(a, b, c, mode, bm, bn, bk, warps, stages, tma, persistent)  # noqa: E731
        try:
            c.fill_(float("nan"))
            run()
            torch.cuda.synchronize()
        except Exception as exc:  # a tile the chip cannot hold: next
            case["error"] = f"{type(exc).__name__}: {exc}"[:300]
            row["cases"].append(case)
            print(json.dumps({"shape": [m, k, n], **case}), flush=True)
            continue
        case.update(errors(a, b, c))
        ms_c, ms_r, lo, hi = interleaved(lambda: torch.mm(a, b, out=cublas), run, cli.samples)
        case.update({"cublas_ms": ms_c, "ms": ms_r, "vs_cublas": ms_c / ms_r, "ci": [lo, hi]})
        row["cases"].append(case)
        print(json.dumps({"shape": [m, k, n], **case}), flush=True)
    del a, b, c, cublas
    torch.cuda.empty_cache()
    out.write(json.dumps(row) + "\n")
    out.flush()
