"""The stream a JSON-lines process (the worker, the Ray driver) answers the engine on."""

from __future__ import annotations

import os
import sys


def protocol_stream():
    """A private copy of stdout for responses; fd 1 then points at stderr, so that prints from
    problem code, torch, triton or Ray cannot corrupt the protocol."""
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out
