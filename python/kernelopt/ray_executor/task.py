"""One problem of a bench run on a Ray node: the engine's `bench` on a one-problem folder.

The problem's text travels with the task (a KernelBench file is a few KiB), so the nodes share no
folder; they need the same kernelopt install (the engine binary at the head's path). The engine
runs exactly as the thread executor runs a problem (the show pipeline, then the search with
`--search`), in a temporary run folder whose document and files go back to the head. This module
imports nothing outside the standard library: the driver ships it to the nodes by value.
"""

from __future__ import annotations

import ctypes
import glob
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import tarfile
import tempfile

# What of the node's run folder the head keeps: the captured output code, the search's files
# (with `optimized/`, which `remeasure` loads) and Inductor's cache (the same compiled baseline),
# last.
KEPT = ("capture", "search", "inductor-cache")
PR_SET_PDEATHSIG = 1
FOLDER_PREFIX = "kernelopt-ray-"  # a task's temporary folder on its node
LINE_LIMIT = 500  # characters of the engine's last line of output kept in a failure


def _die_with_task() -> None:
    """Runs in the engine's process before exec: the kernel kills it when the task's process
    dies, so that a task killed with its process leaves no engine on the GPU Ray hands on."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _remove_dead_tasks_folders() -> None:
    """Removes the temporary folders that killed tasks left on this node: a task writes its pid
    into its folder, and a folder whose task is gone is nobody's."""
    for folder in glob.glob(os.path.join(tempfile.gettempdir(), FOLDER_PREFIX + "*")):
        try:
            with open(os.path.join(folder, "pid"), encoding="utf-8") as f:
                pid = int(f.read())
        except (OSError, ValueError):  # being set up, or not a task's
            continue
        if not _alive(pid):
            shutil.rmtree(folder, ignore_errors=True)


def _renamed(value, names: dict[str, str]):
    """`value` with each of `names`' keys replaced by its value in every string."""
    if isinstance(value, str):
        for old, new in names.items():
            value = value.replace(old, new)
        return value
    if isinstance(value, dict):
        return {k: _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    return value


def _rename_json_files(run: str, names: dict[str, str]) -> None:
    """The JSON documents of the kept folders (optimize.json, show documents) with `names`
    replaced, as JSON text spells them."""
    spelled = {json.dumps(old)[1:-1]: json.dumps(new)[1:-1] for old, new in names.items()}
    for name in KEPT[:-1]:  # Inductor's cache holds no document of ours
        for folder, _, files in os.walk(os.path.join(run, name)):
            for file in (os.path.join(folder, f) for f in files if f.endswith(".json")):
                with open(file, encoding="utf-8") as f:
                    text = f.read()
                with open(file, "w", encoding="utf-8") as f:
                    f.write(_renamed(text, spelled))


def _pack(run: str) -> bytes:
    """The kept folders of the node's run folder as a gzip'd tar (paths relative to it)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name in KEPT:
            if os.path.isdir(os.path.join(run, name)):
                tar.add(os.path.join(run, name), arcname=name)
    return buffer.getvalue()


def run_problem(engine: str, env: dict, args: list, problem: dict) -> dict:
    """Runs `problem` ({level, file, text, path, document, run_dir}) with the engine at `engine`
    and the bench options `args`. Returns {node, document, files} with the document's paths named
    as on the head, or {node, error} when the engine wrote no document."""
    node = socket.gethostname()
    if not os.access(engine, os.X_OK):
        return {"node": node, "error": f"no kernelopt engine at {engine} on this node (every node "
                                       f"needs the same kernelopt install as the head)"}
    _remove_dead_tasks_folders()
    with tempfile.TemporaryDirectory(prefix=FOLDER_PREFIX) as tmp:
        with open(os.path.join(tmp, "pid"), "w", encoding="utf-8") as f:
            f.write(str(os.getpid()))
        kernelbench = os.path.join(tmp, "kernelbench")
        level = os.path.join(kernelbench, f"level{problem['level']}")
        os.makedirs(level)
        path = os.path.join(level, problem["file"])
        with open(path, "w", encoding="utf-8") as out:
            out.write(problem["text"])
        run = os.path.join(tmp, "run")
        command = [engine, "bench", kernelbench, "--level", str(problem["level"]), "--problems",
                   "all", "-q", "-o", run, *args]
        done = subprocess.run(command, env={**os.environ, **env}, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, preexec_fn=_die_with_task,
                              check=False)
        document = os.path.join(run, "problems", problem["document"])
        if not os.path.isfile(document):
            lines = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()
            return {"node": node, "error": f"the engine wrote no document (exit status "
                                           f"{done.returncode}): {lines[-1][-LINE_LIMIT:]}"}
        with open(document, encoding="utf-8") as f:
            doc = json.load(f)
        names = {path: problem["path"], run: problem["run_dir"]}
        _rename_json_files(run, names)
        return {"node": node, "document": _renamed(doc, names), "files": _pack(run)}
