"""The scan recipe's shifted forms on the GPU against float64, on shapes KernelBench does not use,
in float32, bfloat16 and float16: the exclusive scan (each element combines the ones before it)
and the inclusive scan with the neutral element in front (`prepend`, one more column), sums and
products, unscaled and scaled, rows shorter and longer than a chunk. One JSON line per case to OUT
(flushed after each case), and a last line with the counts.
usage: python3 scripts/gpu/scan_shift_check.py OUT.jsonl"""

import json
import sys
import time

import torch

from kernelopt.recipes.scan import cumsum_rows

TOL = {torch.float32: 1e-4, torch.bfloat16: 2e-2, torch.float16: 5e-3}


def reference(x, op, exclusive, prepend, scale):
    x = x.double()
    lead = torch.full((x.shape[0], 1), 1.0 if op == "prod" else 0.0, dtype=torch.float64, device=x.device)
    if exclusive:
        x = torch.cat([lead, x[:, :-1]], 1)
    elif prepend:
        x = torch.cat([lead, x], 1)
    out = torch.cumprod(x, 1) if op == "prod" else torch.cumsum(x, 1)
    return out * (1.0 if scale is None else scale)


def main():
    out_file = open(sys.argv[1], "w")
    torch.manual_seed(0)
    counts = {"cases": 0, "ok": 0}
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        for shape, settings in (((257, 20001), dict(rows=1, block=2048, num_warps=8)),
                                ((1031, 77), dict(rows=16, block=128, num_warps=4))):
            for op in ("sum", "prod"):
                base = torch.rand(shape, device="cuda")
                # Products of values near 1 stay finite; sums of [0, 1) values grow to about n / 2.
                x = (1.0 + 0.0002 * (base - 0.5) if op == "prod" else base).to(dtype)
                for form in ("exclusive", "prepend"):
                    for scale in (None, 0.25):
                        t0 = time.time()
                        want = reference(x, op, form == "exclusive", form == "prepend", scale)
                        got = torch.full(want.shape, float("nan"), device="cuda", dtype=dtype)
                        cumsum_rows(x, got, None, False, op=op, scale=scale,
                                    exclusive=form == "exclusive", prepend=form == "prepend", **settings)
                        torch.cuda.synchronize()
                        # Compared relative to each row's largest value (a running sum's digits).
                        top = want.abs().amax(1, keepdim=True).clamp_min(1.0)
                        err = float(((got.double() - want).abs() / top).max())
                        ok = bool(torch.isfinite(got.double()).all()) and err <= TOL[dtype]
                        row = {"recipe": "scan", "form": form, "op": op, "scale": scale,
                               "dtype": str(dtype).split(".")[-1], "shape": list(shape), "ok": ok,
                               "max_rel_to_row_err": err, "seconds": round(time.time() - t0, 2)}
                        counts["cases"] += 1
                        counts["ok"] += ok
                        print(json.dumps(row), flush=True)
                        out_file.write(json.dumps(row) + "\n")
                        out_file.flush()
    out_file.write(json.dumps(counts) + "\n")
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
