"""scripts/gpu/channels_last_stats.py's small mode, under Triton's interpreter: both statistics
kernels (Inductor's form and the coalesced channels-last tile with its chunk combine) give a
group norm's mean and M2 of float64 PyTorch; the script asserts it and prints ok."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "gpu", "channels_last_stats.py")


def test_small_mode_matches_float64_statistics():
    env = dict(os.environ, TRITON_INTERPRET="1")
    done = subprocess.run([sys.executable, SCRIPT, "small"], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "ok"
    assert any("'coalesced'" in line for line in lines) and any("'inductor'" in line for line in lines)
