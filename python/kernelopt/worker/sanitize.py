"""G2's optional compute-sanitizer run: the candidate once on one seed's captured inputs, in a
process of its own under `compute-sanitizer --tool memcheck|racecheck`.

The tensors are saved to a temporary file and placed in that process each in an allocation of
its own exact size (PyTorch's caching allocator off), without guard bands, so that an access a
byte past a tensor is an access outside every allocation, which memcheck reports. Numbers only
(`sanitizer_errors`, `sanitizer_detail`): the engine judges. Where the tool is missing or its run
fails, `sanitizer_errors` is None and the detail says why. Run as a module, this file is that
process's script: `python -m kernelopt.worker.sanitize TENSORS.pt CANDIDATE.py`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile

TOOLS = ("memcheck", "racecheck")
_SUMMARY = re.compile(r"ERROR SUMMARY:\s*(\d+)\s+error")
_RACES = re.compile(r"RACECHECK SUMMARY:\s*(\d+)\s+hazard")


def sanitizer_path() -> str | None:
    """compute-sanitizer on PATH, else beside CUDA's usual install, else None."""
    found = shutil.which("compute-sanitizer")
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME", ""), "/usr/local/cuda"):
        candidate = os.path.join(root, "bin", "compute-sanitizer") if root else ""
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def parse_report(tool: str, text: str) -> tuple[int | None, str]:
    """(errors or hazards reported, the first report lines) from compute-sanitizer's output;
    None when it printed no summary (it did not run to the end)."""
    match = (_RACES if tool == "racecheck" else _SUMMARY).search(text)
    if match is None and tool == "racecheck":
        match = _SUMMARY.search(text)
    first = [line.strip("= ").strip() for line in text.splitlines()
             if line.startswith("=========") and ("Invalid" in line or "Error" in line or "Race" in line
                                               or "hazard" in line.lower() or "bytes" in line)]
    return (int(match.group(1)) if match else None), " | ".join(first[:3])[:400]


def run_sanitized(tool: str, io: dict, candidate: str, timeout_s: float = 600) -> dict:
    """The candidate on `io` ({"in": {root: tensor}, "out": {root: tensor}}) under the tool."""
    import torch

    result = {"sanitizer": tool, "sanitizer_errors": None, "sanitizer_detail": ""}
    if tool not in TOOLS:
        result["sanitizer_detail"] = f"unknown tool {tool!r} (memcheck or racecheck)"
        return result
    exe = sanitizer_path()
    if exe is None:
        result["sanitizer_detail"] = "compute-sanitizer not found (PATH, CUDA_HOME/bin)"
        return result
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = {**os.environ, "PYTORCH_NO_CUDA_MEMORY_CACHING": "1",
           "PYTHONPATH": here + os.pathsep + os.environ.get("PYTHONPATH", "")}
    with tempfile.TemporaryDirectory() as folder:
        saved = os.path.join(folder, "tensors.pt")
        torch.save({side: {root: (t.detach().cpu() if isinstance(t, torch.Tensor) else t)
                           for root, t in tensors.items()} for side, tensors in io.items()}, saved)
        command = [exe, "--tool", tool, "--print-limit", "10", sys.executable, "-m", "kernelopt.worker.sanitize",
                   saved, candidate]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, env=env)
        except subprocess.TimeoutExpired:
            result["sanitizer_detail"] = f"compute-sanitizer {tool} did not finish in {timeout_s:.0f} s"
            return result
    errors, first = parse_report(tool, done.stdout + done.stderr)
    result["sanitizer_errors"] = errors
    if errors is None:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or [""]
        result["sanitizer_detail"] = f"no summary from compute-sanitizer (exit {done.returncode}): {tail[0][:200]}"
    else:
        result["sanitizer_detail"] = first
    return result


def _main(saved: str, candidate: str) -> int:
    import importlib.util

    import torch

    tensors = torch.load(saved)
    placed = {}
    for side in ("in", "out"):
        for root, value in tensors.get(side, {}).items():
            if root in placed or not isinstance(value, torch.Tensor):
                continue
            t = torch.empty_strided(value.shape, value.stride(), dtype=value.dtype, device="cuda")
            t.copy_(value) if side == "in" else t.zero_()
            placed[root] = t
    inputs = {r: placed.get(r, v) for r, v in tensors.get("in", {}).items()}
    outputs = {r: placed[r] for r in tensors.get("out", {}) if r in placed}
    spec = importlib.util.spec_from_file_location("kernelopt_sanitized_candidate", candidate)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.run(inputs, outputs)
    torch.cuda.synchronize()
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1], sys.argv[2]))
