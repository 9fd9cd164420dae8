"""The helper's loop, as the worker's: one JSON request a line on stdin, one JSON response a line on
stdout, always. Ops: `hello` (the protocol version), `complete` (client.complete), `render` (a
role's prompt filled from a context, without asking anyone: what the documentation measures)."""

from __future__ import annotations

import json
import os
import sys

from . import PROTOCOL, prompts
from .client import complete
from .errors import LlmError, scrub
from .providers import KEY_ENV


def _render(req: dict) -> dict:
    system, user = prompts.render(req.get("role", ""), req.get("context") or {})
    return {"system": system, "user": user, "chars": len(system) + len(user)}


OPS = {"hello": lambda req: {"protocol": PROTOCOL}, "complete": complete, "render": _render}


def handle(line: str) -> dict:
    try:
        req = json.loads(line)
    except ValueError as exc:
        return {"id": None, "ok": False, "error": {"tag": "kernelopt.llm", "message": f"not JSON: {exc}"}}
    if not isinstance(req, dict):
        return {"id": None, "ok": False, "error": {"tag": "kernelopt.llm", "message": "not a JSON object"}}
    op = OPS.get(req.get("op"))
    try:
        if op is None:
            raise LlmError(f"unknown op {req.get('op')!r}")
        return {"id": req.get("id"), "ok": True, **op(req)}
    except LlmError as exc:
        return {"id": req.get("id"), "ok": False, "error": {"tag": exc.tag, "message": exc.message}}
    except Exception as exc:  # the loop's one catch-all: a file it cannot write, a bug; never die
        message = f"{type(exc).__name__}: {exc}"
        for name in KEY_ENV.values():
            message = scrub(message, os.environ.get(name))
        return {"id": req.get("id"), "ok": False, "error": {"tag": "kernelopt.llm", "message": LlmError(message).message}}


def main() -> int:
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(json.dumps(handle(line)) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
