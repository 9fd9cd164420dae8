"""The driver of `kernelopt bench --executor ray`: one JSON request a line from the C++ head, one
JSON response a line (the worker's framing: the response echoes the request's "id").

Ops: `hello` -> {ray: version} (fails with tag kernelopt.ray when Ray is not importable);
`connect` {address} -> {address, nodes: [{name, address, gpus, cpus, accelerator}]};
`submit` {engine, env, args, gpu, retries, run_dir, problems: [{key, level, file, text, path,
document}]} -> {submitted}; `next` -> {key, node, document} or {key, error} (the engine wrote
no document, or the task raised) or {key, lost} (Ray gave up on the task after its retries): the
next problem to finish, its files already unpacked into the run folder; `shutdown` ends the loop.
"""

from __future__ import annotations

import ctypes
import io
import json
import os
import shutil
import signal
import sys
import tarfile
import traceback

from ..worker.framing import protocol_stream
from . import task

PR_SET_PDEATHSIG = 1
NOT_INSTALLED = ("--executor ray needs Ray in the Python that runs kernelopt's worker ({python}): "
                 "pip install ray")


class DriverError(Exception):
    def __init__(self, tag: str, message: str):
        super().__init__(message)
        self.tag = tag
        self.message = message


def _unpack(files: bytes, run_dir: str, stem: str) -> None:
    """Writes a task's kept folders into the run folder: the problem's own capture and search
    folders replace any earlier attempt's; Inductor's cache entries are added where absent. Each
    file is written beside its place and renamed, so a driver killed midway leaves no torn file;
    an archive with anything outside those folders is refused before a file is written."""
    with tarfile.open(fileobj=io.BytesIO(files), mode="r:gz") as tar:
        members = tar.getmembers()
        for member in members:
            parts = member.name.split("/")
            if parts[0] not in task.KEPT or ".." in parts or os.path.isabs(member.name):
                raise DriverError("kernelopt.ray",
                                  f"a task returned a file outside its folders: {member.name}")
        for name in ("capture", "search"):
            shutil.rmtree(os.path.join(run_dir, name, stem), ignore_errors=True)
        for member in members:
            target = os.path.join(run_dir, member.name)
            if member.isdir():
                os.makedirs(target, exist_ok=True)
            elif member.isfile() and not (member.name.startswith("inductor-cache/")
                                          and os.path.exists(target)):
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target + ".part", "wb") as out:
                    shutil.copyfileobj(tar.extractfile(member), out)
                os.chmod(target + ".part", member.mode & 0o755 | 0o600)
                os.replace(target + ".part", target)


class Driver:
    def __init__(self):
        self.ray = None
        self.remote = None
        self.pending = {}  # Ray object reference -> the problem it runs
        self.run_dir = "."

    def hello(self, req):
        try:
            import ray  # noqa: PLC0415 (imported only with --executor ray)
        except ImportError as exc:
            raise DriverError("kernelopt.ray", NOT_INSTALLED.format(python=sys.executable)
                              + f" ({exc})") from None
        self.ray = ray
        return {"ray": ray.__version__}

    def connect(self, req):
        address = req.get("address") or None
        options = {"address": address, "log_to_driver": False, "logging_level": "WARNING"}
        if address is None:
            options["include_dashboard"] = False
        try:
            info = self.ray.init(**options)
        except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError, ...
            where = f"at {address}" if address else "on this machine"
            why = str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise DriverError("kernelopt.ray",
                              f"cannot start or reach a Ray cluster {where}: {why}") from None
        self.ray.cloudpickle.register_pickle_by_value(task)
        self.remote = self.ray.remote(task.run_problem)
        nodes = []
        for node in self.ray.nodes():
            if not node.get("Alive"):
                continue
            resources = node.get("Resources", {})
            kinds = [k.split(":", 1)[1] for k in resources if k.startswith("accelerator_type:")]
            nodes.append({"name": node.get("NodeManagerHostname", "?"),
                          "address": node.get("NodeManagerAddress", "?"),
                          "gpus": int(resources.get("GPU", 0)),
                          "cpus": int(resources.get("CPU", 0)),
                          "accelerator": kinds[0] if kinds else None})
        return {"address": info.address_info.get("gcs_address", address or ""), "nodes": nodes}

    def submit(self, req):
        self.run_dir = req["run_dir"]
        gpu = bool(req["gpu"])
        for problem in req["problems"]:
            # The task's name is its worker's process title: `ray::kernelopt bench level1/19_ReLU`.
            options = {"num_gpus": 1 if gpu else 0, "num_cpus": 1,
                       "max_retries": int(req["retries"]),
                       "name": f"kernelopt bench {problem['key']}"}
            spec = {**problem, "run_dir": req["run_dir"]}
            ref = self.remote.options(**options).remote(req["engine"], req["env"], req["args"],
                                                        spec)
            self.pending[ref] = problem
        return {"submitted": len(req["problems"])}

    def next(self, req):
        if not self.pending:
            raise DriverError("kernelopt.ray", "no problem is running")
        [ref], _ = self.ray.wait(list(self.pending), num_returns=1)
        problem = self.pending.pop(ref)
        try:
            result = self.ray.get(ref)
        except self.ray.exceptions.RayTaskError as exc:  # the task raised: Ray does not retry it
            lines = [line for line in str(exc).splitlines() if line.strip()]
            return {"key": problem["key"],
                    "error": f"its task failed on its node: {lines[-1] if lines else exc}"}
        except self.ray.exceptions.RayError as exc:  # its process or node died, retries spent
            lines = [line for line in str(exc).splitlines() if line.strip()]
            return {"key": problem["key"],
                    "lost": f"{type(exc).__name__}: {lines[0] if lines else ''}"}
        if "files" in result:
            _unpack(result.pop("files"), self.run_dir, os.path.splitext(problem["document"])[0])
        return {"key": problem["key"], **result}

    def shutdown(self, req):
        if self.ray is not None and self.ray.is_initialized():
            self.ray.shutdown()
        return {"bye": True}


OPS = ("hello", "connect", "submit", "next", "shutdown")


def _error(rid, tag: str, message: str) -> dict:
    return {"id": rid, "ok": False, "error": {"tag": tag, "message": message}}


def handle(driver: Driver, line: str) -> dict:
    try:
        req = json.loads(line)
    except json.JSONDecodeError as exc:
        return _error(None, "kernelopt.request", f"not JSON: {exc}")
    if not isinstance(req, dict):
        return _error(None, "kernelopt.request", "not a JSON object")
    rid = req.get("id")
    if req.get("op") not in OPS:
        return _error(rid, "kernelopt.request", f"unknown op {req.get('op')!r}")
    try:
        return {"id": rid, "ok": True, **getattr(driver, req["op"])(req)}
    except DriverError as exc:
        return _error(rid, exc.tag, exc.message)
    except Exception as exc:  # the one catch-all of the driver loop: report, never die silently
        traceback.print_exc(file=sys.stderr)
        return _error(rid, "kernelopt.ray", f"{type(exc).__name__}: {exc}")


def main() -> int:
    # The head's death ends the driver, and with it the job's tasks (Ray ends a dead driver's job).
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    out = protocol_stream()
    driver = Driver()
    for line in filter(str.strip, sys.stdin):
        response = handle(driver, line)
        out.write(json.dumps(response) + "\n")  # line-buffered: sent at the newline
        if response.get("bye"):
            break
    driver.shutdown({})
    return 0


if __name__ == "__main__":
    sys.exit(main())
