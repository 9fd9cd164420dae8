"""Runs segment_capture and check_candidate on a hand-written fake graph, CPU tensors and Triton's
interpreter (TRITON_INTERPRET=1 must be set before triton is imported: hence a process of its own).

usage: gate_driver.py WORK_DIR CANDIDATE... ; prints one JSON object on stdout.
"""

import json
import os
import sys

if __name__ == "__main__":  # only this process: tests import the helpers below without it
    os.environ["TRITON_INTERPRET"] = "1"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import torch  # noqa: E402

from kernelopt.worker.__main__ import finite  # noqa: E402
from kernelopt.worker.capture import Capture, Graph  # noqa: E402
from kernelopt.worker.session import Session  # noqa: E402

# Output code as the engine would instrument it: segment 0 = two "launches" writing a padded
# buf0, an extern call, segment 1 = an in-place update of arg2_1, segment 7 is not requested.
FAKE_GRAPH = '''
import torch


def call(args):
    arg0_1, arg1_1, arg2_1 = args
    args.clear()
    _ko_probe(0, "in", {"arg0_1": arg0_1, "arg1_1": arg1_1})
    buf0 = torch.empty_strided((16, 64), (80, 1), dtype=torch.float32, device=arg0_1.device)
    torch.mul(arg0_1, 2, out=buf0)
    buf0.add_(arg1_1)
    _ko_probe(0, "out", {"buf0": buf0})
    buf1 = torch.mm(buf0, buf0.t())
    _ko_probe(1, "in", {"buf0": buf0, "arg2_1": arg2_1})
    arg2_1.add_(buf0[0])
    _ko_probe(1, "out", {"arg2_1": arg2_1})
    _ko_probe(7, "in", {"buf1": buf1})
    _ko_probe(7, "out", {"buf1": buf1})
    return (buf0, buf1)
'''


def fake_args(seed: int) -> list:
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(16, 64, generator=g), torch.randn(64, generator=g), torch.randn(64, generator=g)]


def session_with_fake_capture(work_dir: str) -> tuple:
    path = os.path.join(work_dir, "graph_0_probed.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(FAKE_GRAPH)
    session = Session()
    graph = Graph(index=0, source=FAKE_GRAPH, path=path, args_by_seed={s: fake_args(s) for s in (0, 1)})
    session.capture = Capture(graphs=[graph], order=[0])
    return session, path


def main() -> int:
    work_dir, candidates = sys.argv[1], sys.argv[2:]
    session, path = session_with_fake_capture(work_dir)
    out = {"segment_capture": session.segment_capture({"graph": 0, "path": path, "segments": [0, 1]}),
           "checks": {}}
    for candidate in candidates:
        name = os.path.splitext(os.path.basename(candidate))[0]
        segment = 1 if name.startswith("seg1") else 0
        session.fatal = None
        result = session.check_candidate({"segment": segment, "candidate": candidate, "seeds": [0, 1],
                                          "rtol": 1e-3, "atol": 1e-3, "guard": 256})
        out["checks"][name] = {**result, "fatal": session.fatal}
    print(json.dumps(finite(out), allow_nan=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
