"""`kernelopt bench --executor ray` end to end on a real local Ray cluster of two nodes (a head
and a worker node, CPUs only), with the engine built by the tests: the no-GPU path runs every
problem as a Ray task, a task killed mid-run is tried again, one killed every time is recorded as
failed with the reason, a killed head resumes from the store, and without Ray the flag is a
one-line error. Also how a task's files reach the head's run folder."""

import glob
import io
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from kernelopt.ray_executor import task  # noqa: E402
from kernelopt.ray_executor.__main__ import DriverError, _unpack  # noqa: E402

BINARY = os.environ.get("KERNELOPT_BINARY",
                        os.path.join(ROOT, "build", "ci", "tools", "kernelopt", "kernelopt"))
PROBLEMS = os.path.join(ROOT, "tests", "fixtures", "problems")
GOOD = open(os.path.join(PROBLEMS, "good_small.py"), encoding="utf-8").read()
# A valid problem whose import takes a while: its run is still going when the test kills the head.
SLOW = "import time\ntime.sleep(20)\n" + GOOD

needs_engine = pytest.mark.skipif(not os.access(BINARY, os.X_OK),
                                  reason=f"the engine is not built ({BINARY})")


def kernelbench(root, files):
    level = root / "kb" / "level1"
    level.mkdir(parents=True)
    for name, text in files.items():
        (level / name).write_text(text)
    return root / "kb"


def bench_command(kb, run, address, *extra):
    return [BINARY, "bench", str(kb), "--level", "1", "--problems", "all", "-q", "--timeout",
            "120", "-o", str(run), "--executor", "ray", "--ray-address", address, *extra]


def documents(run):
    return {p.name: json.loads(p.read_text()) for p in (run / "problems").glob("*.json")}


def store_rows(run):
    with sqlite3.connect(run / "kernelopt.sqlite") as db:
        return dict(db.execute("SELECT name, status FROM problems").fetchall())


def task_processes(name):
    """{pid: title} of the Ray workers running problem `name`'s task now."""
    out = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True, check=True)
    found = {}
    for line in out.stdout.splitlines():
        pid, _, args = line.strip().partition(" ")
        if args.startswith("ray::kernelopt bench level1/" + name):
            found[int(pid)] = args
    return found


def dead_task_folders():
    """The temporary folders of tasks whose process is gone."""
    folders = []
    for folder in glob.glob(os.path.join(tempfile.gettempdir(), task.FOLDER_PREFIX + "*")):
        try:
            pid = int(open(os.path.join(folder, "pid"), encoding="utf-8").read())
        except (OSError, ValueError):
            continue
        if not os.path.exists(f"/proc/{pid}"):
            folders.append(folder)
    return folders


@pytest.fixture(scope="module")
def cluster():
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    from ray.cluster_utils import Cluster

    nodes = Cluster(initialize_head=True, head_node_args={"num_cpus": 2})
    nodes.add_node(num_cpus=1)
    nodes.wait_for_nodes()
    yield nodes.address
    nodes.shutdown()


@needs_engine
def test_every_problem_runs_as_a_ray_task_and_is_recorded_once(cluster, tmp_path):
    syntax = open(os.path.join(PROBLEMS, "syntax_error.py"), encoding="utf-8").read()
    kb = kernelbench(tmp_path, {"1_good_small.py": GOOD, "2_syntax_error.py": syntax,
                                "3_again_small.py": GOOD})
    run = tmp_path / "run"
    done = subprocess.run(bench_command(kb, run, cluster), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 4, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "kernelopt: error: [kernelopt.nogpu] bench: no NVIDIA GPU in the Ray cluster: 2 of 3 "
        f"problems loaded and validated, none measured; all are recorded as failed in "
        f"{run / 'summary.json'} (see `kernelopt doctor`)")
    assert "bench: Ray cluster: 2 nodes, 0 GPUs: " in done.stderr
    docs = documents(run)
    assert sorted(docs) == ["level1_1_good_small.json", "level1_2_syntax_error.json",
                            "level1_3_again_small.json"]
    host = socket.gethostname()
    for name, doc in docs.items():
        # Named as on the head: the problem's own path, the node that ran it.
        assert doc["path"] == str(kb / "level1" / (name[len("level1_"):-len(".json")] + ".py"))
        assert doc["error"]["message"].startswith(doc["path"] + ": "), doc["error"]
        assert "kernelopt-ray-" not in json.dumps(doc)
        assert doc["cost"]["node"] == host
        assert f"{doc['problem']}: failed (" in done.stderr and f" on {host}" in done.stderr
    assert docs["level1_2_syntax_error.json"]["outcome"]["reason"] == "problem error"
    for name in ("level1_1_good_small.json", "level1_3_again_small.json"):
        assert docs[name]["outcome"]["reason"] == "needs an NVIDIA GPU"
        assert docs[name]["error"]["tag"] == "kernelopt.nogpu"
    assert set(store_rows(run).values()) == {"failed"} and len(store_rows(run)) == 3
    summary = json.loads((run / "summary.json").read_text())
    assert summary["overall"]["failure_reasons"] == {"needs an NVIDIA GPU": 2, "problem error": 1}
    assert [n["problems"] for n in summary["nodes"]] == [3] and summary["runs"]["runs"] == 1


@needs_engine
def test_a_killed_task_is_tried_again_and_one_always_killed_fails(cluster, tmp_path):
    kb = kernelbench(tmp_path, {"1_good_small.py": GOOD, "2_killed_once.py": GOOD,
                                "3_killed_always.py": GOOD})
    run = tmp_path / "run"
    head = subprocess.Popen(bench_command(kb, run, cluster), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    # Each task's process is killed as soon as it runs the problem: the first once, the other on
    # every try, until Ray gives up on it (after its retries).
    killed = {"2_killed_once": set(), "3_killed_always": set()}
    deadline = time.monotonic() + 240
    while head.poll() is None and time.monotonic() < deadline:
        for name, pids in killed.items():
            for pid in task_processes(name):
                if pid not in pids and (name == "3_killed_always" or not pids):
                    os.kill(pid, signal.SIGKILL)
                    pids.add(pid)
        time.sleep(0.1)
    out, err = head.communicate(timeout=60)
    assert len(killed["2_killed_once"]) == 1 and len(killed["3_killed_always"]) >= 3, err
    assert head.returncode == 4, err
    docs = documents(run)
    assert len(docs) == 3 and len(store_rows(run)) == 3
    # Killed once: Ray's retry ran it to its end.
    assert docs["level1_2_killed_once.json"]["outcome"]["reason"] == "needs an NVIDIA GPU"
    lost = docs["level1_3_killed_always.json"]
    assert lost["outcome"]["reason"] == "worker crashed", lost
    assert "node" not in lost["cost"]  # no node finished it
    assert lost["error"]["message"].startswith(
        f"{kb / 'level1' / '3_killed_always.py'}: its Ray task was lost with its process or node "
        "on its first try and on each of Ray's 2 retries: "), lost["error"]
    assert err.count("level1/3_killed_always: failed (worker crashed)") == 1, err


@needs_engine
def test_a_killed_head_resumes_and_skips_what_is_done(cluster, tmp_path):
    kb = kernelbench(tmp_path, {"1_good_small.py": GOOD, "2_slow.py": SLOW,
                                "3_again_small.py": GOOD})
    run = tmp_path / "run"
    head = subprocess.Popen(bench_command(kb, run, cluster), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 180
    while len(documents(run) if (run / "problems").is_dir() else {}) < 2:
        assert head.poll() is None and time.monotonic() < deadline, "the fast problems never ended"
        time.sleep(0.2)
    head.kill()
    head.wait(timeout=30)
    assert store_rows(run)["level1/2_slow"] == "running"
    assert "level1_2_slow.json" not in documents(run)
    # As if a GPU had measured the first problem: a done problem is never submitted again.
    with sqlite3.connect(run / "kernelopt.sqlite") as db:
        db.execute("UPDATE problems SET status = 'done' WHERE name = 'level1/1_good_small'")
    before = (run / "problems" / "level1_1_good_small.json").read_bytes()
    (kb / "level1" / "2_slow.py").write_text(GOOD)  # quick this time
    # A task killed with the run may have left its temporary folder; the next tasks on the node
    # remove it.
    deadline = time.monotonic() + 30
    while task_processes("2_slow") and time.monotonic() < deadline:
        time.sleep(0.2)
    left = dead_task_folders()
    done = subprocess.run(bench_command(kb, run, cluster), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 4, done.stderr
    assert "bench: 1 problems already done in this run directory, skipped" in done.stderr
    assert "[2/2]" in done.stderr and "[3/" not in done.stderr, done.stderr
    assert (run / "problems" / "level1_1_good_small.json").read_bytes() == before
    rows = store_rows(run)
    assert rows == {"level1/1_good_small": "done", "level1/2_slow": "failed",
                    "level1/3_again_small": "failed"}
    assert documents(run)["level1_2_slow.json"]["outcome"]["reason"] == "needs an NVIDIA GPU"
    assert not any(os.path.exists(folder) for folder in left)


@needs_engine
def test_without_ray_the_flag_is_a_one_line_error(tmp_path):
    kb = kernelbench(tmp_path, {"1_good_small.py": GOOD})
    shadow = tmp_path / "shadow" / "ray"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError(\"No module named 'ray'\")\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "shadow"))
    run = tmp_path / "run"
    done = subprocess.run(bench_command(kb, run, "127.0.0.1:1"), capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 6
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "kernelopt: error: [kernelopt.ray] --executor ray needs Ray in the Python that runs "
        "kernelopt's worker"), done.stderr
    assert "pip install ray" in lines[0]
    assert not run.exists()


@needs_engine
def test_ray_address_needs_the_ray_executor(tmp_path):
    kb = kernelbench(tmp_path, {"1_good_small.py": GOOD})
    command = bench_command(kb, tmp_path / "run", "127.0.0.1:1")
    command.remove("--executor")
    command.remove("ray")
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "kernelopt: error: [kernelopt.usage] bench: --ray-address needs --executor ray")


def test_a_tasks_files_land_in_the_run_folder_named_as_on_the_head(tmp_path):
    node = tmp_path / "node" / "run"
    (node / "search" / "level1_1_p" / "optimized").mkdir(parents=True)
    (node / "search" / "level1_1_p" / "optimize.json").write_text(
        json.dumps({"optimized": str(node / "search" / "level1_1_p" / "optimized")}))
    (node / "inductor-cache" / "ab").mkdir(parents=True)
    (node / "inductor-cache" / "ab" / "kernel.py").write_text("new")
    task._rename_json_files(str(node), {str(node): "runs/l1"})
    files = task._pack(str(node))
    head = tmp_path / "head"
    (head / "search" / "level1_1_p").mkdir(parents=True)
    (head / "search" / "level1_1_p" / "stale.txt").write_text("an earlier try's file")
    (head / "inductor-cache" / "ab").mkdir(parents=True)
    (head / "inductor-cache" / "ab" / "kernel.py").write_text("kept")
    _unpack(files, str(head), "level1_1_p")
    assert json.loads((head / "search" / "level1_1_p" / "optimize.json").read_text()) == {
        "optimized": "runs/l1/search/level1_1_p/optimized"}
    assert not (head / "search" / "level1_1_p" / "stale.txt").exists()
    assert (head / "inductor-cache" / "ab" / "kernel.py").read_text() == "kept"
    assert not list(head.rglob("*.part"))
    # A file outside the kept folders is refused, and nothing of it is written.
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        info = tarfile.TarInfo("search/../../escaped.txt")
        tar.addfile(info, io.BytesIO(b""))
    with pytest.raises(DriverError, match="outside its folders"):
        _unpack(buffer.getvalue(), str(head), "level1_2_q")
    assert not (tmp_path / "escaped.txt").exists()


def test_a_task_removes_the_folders_of_killed_tasks_on_its_node(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.Popen(["true"])
    ended.wait()
    for name, pid in (("dead", ended.pid), ("alive", os.getpid())):
        (tmp_path / (task.FOLDER_PREFIX + name)).mkdir()
        (tmp_path / (task.FOLDER_PREFIX + name) / "pid").write_text(str(pid))
    (tmp_path / (task.FOLDER_PREFIX + "starting")).mkdir()  # no pid yet: left alone
    task._remove_dead_tasks_folders()
    assert sorted(p.name for p in tmp_path.iterdir()) == [task.FOLDER_PREFIX + "alive",
                                                         task.FOLDER_PREFIX + "starting"]
