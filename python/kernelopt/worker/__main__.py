"""The worker loop: read one JSON request a line, dispatch, write one JSON response, always."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import traceback

from .errors import WorkerError, is_cuda_error, is_out_of_memory, one_line
from .framing import protocol_stream
from .session import OPS, Session


FATAL_EXIT = 3  # the CUDA context is unusable after a CUDA error: the engine starts a fresh worker


def finite(value):
    """JSON has no NaN or infinity: such floats travel as the strings "nan", "inf", "-inf"."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return "nan" if value != value else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def handle(session: Session, line: str) -> dict:
    try:
        req = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"id": None, "ok": False, "error": {"tag": "kernelopt.request", "message": f"not JSON: {exc}"}}
    if not isinstance(req, dict):
        return {"id": None, "ok": False, "error": {"tag": "kernelopt.request", "message": "not a JSON object"}}
    rid = req.get("id")
    op = OPS.get(req.get("op"))
    try:
        if op is None:
            raise WorkerError("kernelopt.request", f"unknown op {req.get('op')!r}")
        return {"id": rid, "ok": True, **op(session, req)}
    except WorkerError as exc:
        return {"id": rid, "ok": False, "error": {"tag": exc.tag, "message": exc.message}}
    except Exception as exc:  # the one catch-all of the worker loop: report, never die
        traceback.print_exc(file=sys.stderr)
        if is_cuda_error(exc) and not is_out_of_memory(exc):  # the context is unusable: answer, then exit (see main)
            session.fatal = one_line(exc)
        tag = "kernelopt.oom" if is_out_of_memory(exc) else "kernelopt.worker"
        return {"id": rid, "ok": False, "error": {"tag": tag, "message": one_line(exc)},
                "worker_exiting": session.fatal is not None}


def exit_with_engine(poll_s: float = 1.0) -> None:
    """Ends this process within `poll_s` of its engine's death (its parent changes): a worker
    whose engine was killed (a bench problem's Ray task lost, a run stopped with SIGKILL) must not
    keep computing on a GPU that another problem is then given."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(poll_s)
        os._exit(FATAL_EXIT)

    threading.Thread(target=watch, name="kernelopt-engine-watch", daemon=True).start()


def main() -> int:
    exit_with_engine()
    out = protocol_stream()
    session = Session()
    for line in sys.stdin:
        if not line.strip():
            continue
        response = handle(session, line)
        out.write(json.dumps(finite(response), allow_nan=False) + "\n")
        out.flush()
        if response.get("ok") and response.get("bye"):
            break
        if session.fatal is not None:
            print(f"kernelopt worker: exiting after a CUDA error ({session.fatal})", file=sys.stderr)
            return FATAL_EXIT
    return 0


if __name__ == "__main__":
    sys.exit(main())
