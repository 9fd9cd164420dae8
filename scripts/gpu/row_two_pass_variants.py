"""Chooses BLOCK, NUM_WARPS, PROGRAMS_PER_SM and REVERSE of a row_two_pass candidate on the GPU:
times each setting on the problem's own inputs against torch.compile (max-autotune, no CUDA graphs,
timed before and after the sweep), checks it against the compiled model at 1e-4, and rewrites the
candidate's constants in place with the fastest correct setting (a verify in the same run then
checks exactly that file); copies it to OUT_DIR.
usage: python3 scripts/gpu/row_two_pass_variants.py PROBLEM.py CANDIDATE.py OUT_DIR"""

import itertools
import os
import sys

import torch
import triton.testing

from settings_lib import load_module, rewrite_constants

problem_path, path, out_dir = sys.argv[1:4]
problem = load_module(problem_path, "problem")
candidate = load_module(path, "candidate")
torch.manual_seed(0)
model = problem.Model(*problem.get_init_inputs()).cuda()
(x,) = [t.cuda() for t in problem.get_inputs()]
compiled = torch.compile(model, mode="max-autotune-no-cudagraphs")
with torch.no_grad():
    want = compiled(x)
    base = triton.testing.do_bench(lambda: compiled(x), warmup=25, rep=200, return_mode="median")
print(f"{os.path.basename(problem_path)}: torch.compile {base * 1000:.1f} us")
out = torch.empty_like(want)
best = None
for block, warps, pps, reverse in itertools.product((1024, 2048, 4096), (4, 8, 16), (0, 1, 2), (0, 1)):
    values = {"BLOCK": block, "NUM_WARPS": warps, "PROGRAMS_PER_SM": pps, "REVERSE": reverse}
    for key, value in values.items():
        setattr(candidate, key, value)
    out.fill_(float("nan"))
    try:
        candidate.run({"x": x}, {"out": out})
    except Exception as exc:  # a setting that does not compile (shared memory, registers)
        print(f"{values}: {type(exc).__name__}: {str(exc)[:120]}")
        continue
    ok = torch.allclose(out, want, rtol=1e-4, atol=1e-4)
    ms = triton.testing.do_bench(lambda: candidate.run({"x": x}, {"out": out}), warmup=10, rep=100,
                                 return_mode="median")
    print(f"{values}: {ms * 1000:.1f} us ({base / ms:.3f}x) {'ok' if ok else 'WRONG'}", flush=True)
    if ok and (best is None or ms < best[0]):
        best = (ms, values)
with torch.no_grad():
    after = triton.testing.do_bench(lambda: compiled(x), warmup=25, rep=200, return_mode="median")
print(f"torch.compile again: {after * 1000:.1f} us")
if best is None:
    sys.exit("no correct setting")
rewrite_constants(path, best[1], copy_to=out_dir)
print(f"chosen for {os.path.basename(path)}: {best[1]} {best[0] * 1000:.1f} us "
      f"({min(base, after) / best[0]:.3f}x against the faster compiled timing)")
