"""G2's compute-sanitizer run without a GPU: the reading of the tool's reports, and the answer
where the tool cannot run (the GPU suite runs it for real: tests/planted/bad_reads_past_the_end.py).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from kernelopt.worker import sanitize  # noqa: E402

MEMCHECK = """========= COMPUTE-SANITIZER
========= Invalid __global__ read of size 4 bytes
=========     at _row_sum+0x1d0
=========     by thread (31,0,0) in block (2046,0,0)
=========     Address 0x7f5a3e000000 is out of bounds
=========     and is 0 bytes after the nearest allocation at 0x7f5a3c000000 of size 33538048 bytes
=========
========= ERROR SUMMARY: 1 error
"""
CLEAN = "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n"
RACES = "========= COMPUTE-SANITIZER\n========= RACECHECK SUMMARY: 3 hazards displayed (3 errors, 0 warnings)\n"


def test_memcheck_reports_are_read_as_errors_with_their_first_lines():
    errors, detail = sanitize.parse_report("memcheck", MEMCHECK)
    assert errors == 1 and "Invalid __global__ read" in detail and "0 bytes after" in detail
    assert sanitize.parse_report("memcheck", CLEAN) == (0, "")
    assert sanitize.parse_report("racecheck", RACES)[0] == 3
    assert sanitize.parse_report("memcheck", "Traceback ...\nRuntimeError: boom\n")[0] is None  # no summary


def test_without_the_tool_the_run_says_so_and_counts_nothing(monkeypatch):
    monkeypatch.setattr(sanitize, "sanitizer_path", lambda: None)
    result = sanitize.run_sanitized("memcheck", {"in": {}, "out": {}}, "candidate.py")
    assert result["sanitizer_errors"] is None and "not found" in result["sanitizer_detail"]
    unknown = sanitize.run_sanitized("initcheck", {"in": {}, "out": {}}, "candidate.py")
    assert unknown["sanitizer_errors"] is None and "unknown tool" in unknown["sanitizer_detail"]
