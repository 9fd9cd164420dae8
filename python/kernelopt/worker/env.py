"""Describe the environment: versions, the GPU, ncu, and the measured copy bandwidth."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys


def describe() -> dict:
    from ..requirements import check

    info = {"python": sys.version.split()[0], "platform": platform.platform(),
            "python_executable": sys.executable,
            "kernelopt_package": os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
            "requirements": check()}
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
            info["clock_khz"] = getattr(props, "clock_rate", 0)
            peak = fp32_peak_gflops(props.major, props.minor, props.multi_processor_count,
                                    info["clock_khz"])
            if peak:
                info["fp32_gflops"] = peak
            info["memory_bytes"] = props.total_memory
            info["free_memory_bytes"] = torch.cuda.mem_get_info()[0]  # now, as the driver sees it
            info["peak_memory_bytes"] = torch.cuda.max_memory_allocated()  # this process so far
    except ImportError as exc:
        info["torch_error"] = str(exc)
    else:
        from ..vendor.settings import library_settings

        # How cuDNN and cuBLAS are configured in this process: the compiler's vendor calls run so.
        info["vendor_config"] = library_settings()
    try:
        import triton

        info["triton"] = triton.__version__
    except ImportError as exc:
        info["triton_error"] = str(exc)
    info["driver"] = _driver_version()
    info["ncu"] = shutil.which("ncu")
    return info


# Float32 fused multiply-adds each SM issues per clock on its CUDA cores, by compute capability
# (CUDA C++ Programming Guide, "Arithmetic Instructions": 64 on Volta, Turing and A100, 128 on
# GA10x, Ada and Hopper). Unknown capabilities get no compute floor.
_FP32_FMA_PER_SM_CLOCK = {(7, 0): 64, (7, 2): 64, (7, 5): 64, (8, 0): 64, (8, 6): 128,
                          (8, 7): 128, (8, 9): 128, (9, 0): 128}


def fp32_peak_gflops(major: int, minor: int, sm_count: int, clock_khz: int):
    """The peak float32 rate on the CUDA cores in GFLOP/s (an FMA is two operations) at the
    device's highest clock, or None where the capability or the clock is unknown. A full-float32
    matrix product can go no faster than this, whatever its memory traffic."""
    lanes = _FP32_FMA_PER_SM_CLOCK.get((major, minor))
    if not lanes or sm_count <= 0 or clock_khz <= 0:
        return None
    return sm_count * lanes * 2 * clock_khz * 1e3 / 1e9


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
