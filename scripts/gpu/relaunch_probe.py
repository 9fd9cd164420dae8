"""Probe: does a `config` candidate's plain @triton.jit copy of each Inductor kernel
give Inductor's bits? Each Inductor kernel launch of one compiled forward (`torch.compile`,
PROBE_MODE, default max-autotune) is intercepted: its arguments are copied before it runs, and
right after it the candidate's copy of that kernel (same name, the candidate's grid and settings)
runs on the copies; the outputs are compared element by element, one kernel at a time (so only one
kernel's arguments are held twice). The launch settings on both sides, the compiled kernels'
metadata and, where both are at hand, their PTX are written to OUT_DIR/relaunch_probe.json.
Usage, on the GPU: python3 scripts/gpu/relaunch_probe.py PROBLEM.py CANDIDATE.py OUT_DIR
"""
import importlib.util
import json
import os
import re
import sys

import torch
import triton


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


problem_path, cand_path, out_dir = sys.argv[1:4]
os.makedirs(out_dir, exist_ok=True)
problem = load(problem_path, "problem")
cand = load(cand_path, "cand")
torch.manual_seed(0)
model = problem.Model(*problem.get_init_inputs()).cuda().eval()
torch.manual_seed(1)
inputs = [x.cuda() if torch.is_tensor(x) else x for x in problem.get_inputs()]
mode = os.environ.get("PROBE_MODE", "max-autotune")

from torch._inductor.runtime.triton_heuristics import CachingAutotuner  # noqa: E402

src = open(cand_path).read()
launch_re = re.compile(r"^\s*(triton_\w+)\[(.+?)\]\((.*)\)\s*$", re.M)


def split_args(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


launches = {m.group(1): (m.group(2), split_args(m.group(3))) for m in launch_re.finditer(src)}


def meta_dict(bin_):
    md = getattr(bin_, "metadata", None)
    if md is None:
        return {}
    if hasattr(md, "_asdict"):
        md = md._asdict()
    elif not isinstance(md, dict):
        md = vars(md)
    return {k: str(v)[:200] for k, v in md.items() if k not in ("target",)}


def ptx_of(bin_):
    asm = getattr(bin_, "asm", None) or {}
    return asm.get("ptx", "")


report = []
orig_run = CachingAutotuner.run


def clone(a):
    return a.clone() if torch.is_tensor(a) else a


def recording_run(self, *args, **kwargs):
    name = self.fn.__name__
    pre = [clone(a) for a in args] if name in launches and hasattr(cand, name) else None
    result = orig_run(self, *args, **kwargs)
    torch.cuda.synchronize()
    rec = {"i": len(report), "name": name}
    launcher = self.launchers[0]
    cfg = launcher.config
    rec["inductor_config"] = {**cfg.kwargs, "num_warps": cfg.num_warps, "num_stages": cfg.num_stages}
    ibin = getattr(launcher, "bin", None)
    rec["triton_meta"] = {kk: str(v)[:300] for kk, v in self.triton_meta.items() if kk != "signature"}
    rec["inductor_bin_meta"] = meta_dict(ibin)
    if pre is None:
        rec["candidate"] = "not in the candidate"
        report.append(rec)
        return result
    grid_src, arg_srcs = launches[name]
    grid = eval(grid_src, {"triton": triton})
    kw = {}
    for a in arg_srcs:
        if "=" in a and not a.startswith("_"):
            key, val = a.split("=", 1)
            kw[key.strip()] = eval(val, {"triton": triton})
    ck = getattr(cand, name)[grid](*pre, **kw)
    torch.cuda.synchronize()
    rec["candidate_launch"] = {"grid": str(grid), **{kk: str(v) for kk, v in kw.items()}}
    rec["candidate_bin_meta"] = meta_dict(ck)
    diffs = []
    for j, (got, want) in enumerate(zip(pre, args)):
        if not torch.is_tensor(want):
            continue
        if not torch.equal(got, want):
            nd = int((got != want).sum())
            d = (got.double() - want.double()).abs()
            diffs.append({"arg": j, "differ": nd, "of": want.numel(),
                          "max_abs": float(torch.nan_to_num(d, nan=0.0).max()),
                          "max_ref": float(want.abs().max())})
            del d
    del pre
    rec["differences"] = diffs
    ip, cp = ptx_of(ibin), ptx_of(ck)
    rec["ptx_equal"] = (ip == cp) if ip and cp else None
    if ip and cp and ip != cp:
        open(os.path.join(out_dir, f"{rec['i']}_{name[:40]}_inductor.ptx"), "w").write(ip)
        open(os.path.join(out_dir, f"{rec['i']}_{name[:40]}_candidate.ptx"), "w").write(cp)
    report.append(rec)
    print(rec["i"], name[:60], "diffs:", diffs, "ptx_equal:", rec["ptx_equal"], flush=True)
    return result


CachingAutotuner.run = recording_run
compiled = torch.compile(model, mode=mode)
with torch.no_grad():
    compiled(*inputs)
torch.cuda.synchronize()
CachingAutotuner.run = orig_run

with open(os.path.join(out_dir, "relaunch_probe.json"), "w") as f:
    json.dump(report, f, indent=1)
