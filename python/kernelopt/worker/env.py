"""Describe the environment: versions, the GPU, ncu, and the measured copy bandwidth."""

from __future__ import annotations

import platform
import shutil
import subprocess
import sys


def describe() -> dict:
    info = {"python": sys.version.split()[0], "platform": platform.platform()}
    try:
        import torch

        info["torch"] = torch.__version__
        info["cuda_runtime"] = torch.version.cuda
        info["cuda_available"] = bool(torch.cuda.is_available())
        if info["cuda_available"]:
            props = torch.cuda.get_device_properties(0)
            info["gpu"] = props.name
            info["gpu_count"] = torch.cuda.device_count()
            info["compute_capability"] = f"{props.major}.{props.minor}"
            info["sm_count"] = props.multi_processor_count
            info["memory_bytes"] = props.total_memory
            info["free_memory_bytes"] = torch.cuda.mem_get_info()[0]  # now, as the driver sees it
            info["peak_memory_bytes"] = torch.cuda.max_memory_allocated()  # this process so far
    except ImportError as exc:
        info["torch_error"] = str(exc)
    try:
        import triton

        info["triton"] = triton.__version__
    except ImportError as exc:
        info["triton_error"] = str(exc)
    info["driver"] = _driver_version()
    info["ncu"] = shutil.which("ncu")
    return info


def _driver_version():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    try:
        out = subprocess.run([smi, "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else None


def measure_bandwidth(gib: float = 2.0, iters: int = 30) -> dict:
    """Device-to-device copy: bytes read plus bytes written over the median time."""
    import torch

    from .timing import summary, time_calls

    n = int(gib * (1 << 30)) // 4
    src = torch.rand(n, device="cuda")
    dst = torch.empty_like(src)
    samples = time_calls(lambda: dst.copy_(src), iters=iters, warmup=3, mode="queued")
    s = summary(samples)
    bytes_moved = 2 * n * 4
    return {"copy_bytes": bytes_moved, "median_ms": s["median_ms"],
            "bandwidth_gbps": bytes_moved / (s["median_ms"] * 1e-3) / 1e9}


_NCU_PROBE = "import torch; x = torch.rand(1 << 20, device='cuda'); y = (x * 2).sum(); torch.cuda.synchronize()"


def probe_ncu(timeout_s: float = 180.0) -> dict:
    """Whether Nsight Compute can read hardware counters here."""
    ncu = shutil.which("ncu")
    if not ncu:
        return {"ncu_counters": False, "ncu_detail": "ncu not found on PATH"}
    cmd = [ncu, "--clock-control", "none", "--metrics", "gpu__time_duration.sum", "--csv",
           sys.executable, "-c", _NCU_PROBE]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, check=False)
    except subprocess.TimeoutExpired:
        return {"ncu_counters": False, "ncu_detail": f"ncu timed out after {timeout_s:.0f} s"}
    text = out.stdout + out.stderr
    if "ERR_NVGPUCTRPERM" in text:
        return {"ncu_counters": False, "ncu_detail": "no permission to read GPU counters (ERR_NVGPUCTRPERM)"}
    ok = out.returncode == 0 and "gpu__time_duration.sum" in text
    tail = text.strip().splitlines()[-1] if text.strip() else ""
    return {"ncu_counters": ok, "ncu_detail": "reads counters" if ok else f"exit {out.returncode}: {tail[:200]}"}
