"""scripts/gpu/pool_variants.py's correctness path, under Triton's interpreter on tiny shapes: every
setting it runs matches PyTorch, and each line it writes names the setting and the case."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "gpu", "pool_variants.py")


def test_cpu_check_writes_one_correct_line_per_setting(tmp_path):
    out = tmp_path / "pool.jsonl"
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=os.path.join(ROOT, "python"))
    done = subprocess.run([sys.executable, SCRIPT, str(out), "--cpu-check", "--cases", "1,4"],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["case"] for r in rows} == {"L1/43 max 3d", "max 1d k4 s2"}
    assert len(rows) == 6  # three settings a case
    for r in rows:
        assert r["ok"] is True
        assert r["rows"] * r["block"] in (1024, 2048, 4096)
        assert r["num_warps"] in (4, 8)
