"""scripts/gpu/check_planted.py (compares verify documents with tests/planted/expected.json) on
hand-made verify documents, and scripts/gpu/planted_suite.sh end to end with a fake binary."""

import importlib.util
import json
import os
import subprocess
import sys
import tarfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "gpu", "check_planted.py")
SUITE = os.path.join(ROOT, "scripts", "gpu", "planted_suite.sh")
EXPECTED = os.path.join(ROOT, "tests", "planted", "expected.json")

_spec = importlib.util.spec_from_file_location("check_planted", SCRIPT)
check_planted = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_planted)


def gate(name, status="ok", detail="", numbers=None):
    return {"gate": name, "status": status, "detail": detail, "numbers": numbers or {}}


def verify_doc(path, gate_name=None, status="accepted", ratio=1.004):
    """A verify document (src/kernelopt/engine/verify.cpp, result_json) for one seg0 candidate
    whose first failure is (gate_name, status), or which passes everything."""
    perf = gate("G4 performance", numbers={"ratio": ratio, "ratio_low": ratio - 0.01, "ratio_high": ratio + 0.01})
    own = [gate("G1 static"), gate("G2 isolated")]
    model = [gate("G3 model"), perf]
    if gate_name == "G1 static":
        own = [gate("G1 static", status, "does not compile")]
    elif gate_name == "G2 isolated":
        own = [gate("G1 static"), gate("G2 isolated", status, "seed 1: 12 elements outside tolerance")]
    elif gate_name == "G3 model":
        model = [gate("G3 model", status, "seed 0: differs from eager by 0.99")]
    elif gate_name == "G4 performance":
        model = [gate("G3 model"), {**perf, "status": status, "detail": f"slower: {ratio:.3f}x"}]
    cand_passed = all(g["status"] == "ok" for g in own) and len(own) == 2
    attempts = []
    if cand_passed:
        attempts = [{"segments": [0], "passed": all(g["status"] == "ok" for g in model), "gates": model}]
    accepted = bool(attempts) and attempts[0]["passed"]
    outcome = {"class": "matched (optimized)" if accepted else "fallback", "reason": "",
               "ratio": ratio if accepted else None, "ratio_low": None, "ratio_high": None}
    doc = {"candidates": [{"segment": 0, "file": path, "passed": cand_passed, "gates": own}],
           "attempts": attempts, "outcome": outcome, "problem": "examples/row_sum.py", "segments": 1}
    if accepted:
        doc["optimized"] = {"dir": "optimized"}
    return doc


def matching_doc(name, entry):
    if entry["status"] == "accepted":
        return verify_doc(name)
    return verify_doc(name, entry["gate"], entry["status"], ratio=0.4)


@pytest.fixture(scope="module")
def expected():
    with open(EXPECTED, encoding="utf-8") as f:
        return json.load(f)


def test_verdicts_of_hand_made_documents():
    assert check_planted.verdict(verify_doc("a.py"))["got"] == "accepted"
    assert check_planted.verdict(verify_doc("a.py"))["ratio"] == pytest.approx(1.004)
    assert check_planted.verdict(verify_doc("a.py", "G1 static", "compile_failed"))["got"] == "G1 static: compile_failed"
    v = check_planted.verdict(verify_doc("a.py", "G2 isolated", "wrong_result"))
    assert v["got"] == "G2 isolated: wrong_result" and "outside tolerance" in v["detail"]
    assert check_planted.verdict(verify_doc("a.py", "G3 model", "model_mismatch"))["got"] == "G3 model: model_mismatch"
    v = check_planted.verdict(verify_doc("a.py", "G4 performance", "slower", ratio=0.31))
    assert v["got"] == "G4 performance: slower" and v["ratio"] == pytest.approx(0.31)
    assert check_planted.verdict(None)["got"] == "not run"
    # every gate passed but the problem was not optimized: not "accepted"
    odd = verify_doc("a.py")
    odd["outcome"]["class"] = "fallback"
    assert check_planted.verdict(odd)["got"] == "not accepted"
    # the candidate passed but no model attempt was made
    lonely = verify_doc("a.py")
    lonely["attempts"] = []
    assert check_planted.verdict(lonely)["got"] == "no attempt"


def test_one_matching_and_one_mismatching_document(tmp_path):
    exp = {"problem": "examples/row_sum.py", "segment": "seg0",
           "candidates": {"bad_x.py": {"gate": "G2 isolated", "status": "wrong_result", "note": "n"},
                          "bad_y.py": {"gate": "G2 isolated", "status": "not_written", "note": "n"},
                          "good_z.py": {"gate": None, "status": "accepted", "note": "n"}}}
    (tmp_path / "expected.json").write_text(json.dumps(exp))
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "bad_x.json").write_text(json.dumps(verify_doc("bad_x.py", "G2 isolated", "wrong_result")))
    (runs / "bad_y.json").write_text(json.dumps(verify_doc("bad_y.py", "G2 isolated", "out_of_bounds")))
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, SCRIPT, "--expected", str(tmp_path / "expected.json"), "--out", str(out),
                           str(runs)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = {line.split()[0]: line for line in done.stdout.splitlines() if line.startswith(("bad_", "good_"))}
    assert lines["bad_x.py"].split()[-1] == "OK"
    assert "G2 isolated: out_of_bounds" in lines["bad_y.py"] and lines["bad_y.py"].split()[-1] == "MISMATCH"
    assert lines["good_z.py"].endswith("NOT RUN")
    report = json.loads((out / "planted.json").read_text())
    assert report["summary"] == {"ok": 1, "mismatch": 1, "not_run": 1}
    assert [r["result"] for r in report["rows"]] == ["OK", "MISMATCH", "NOT RUN"]
    md = (out / "planted.md").read_text()
    assert "| bad_y.py | G2 isolated: not_written | G2 isolated: out_of_bounds | MISMATCH |" in md

    # the missing result, from a .tgz (as a second GPU session would bring it): no mismatch left
    # once bad_y's is replaced by a later source
    later = tmp_path / "later"
    later.mkdir()
    (later / "good_z.json").write_text(json.dumps(verify_doc("good_z.py")))
    (later / "bad_y.json").write_text(json.dumps(verify_doc("bad_y.py", "G2 isolated", "not_written")))
    with tarfile.open(tmp_path / "later.tgz", "w:gz") as tar:
        tar.add(later, arcname=".")
    done = subprocess.run([sys.executable, SCRIPT, "--expected", str(tmp_path / "expected.json"), str(runs),
                           str(tmp_path / "later.tgz")], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 OK, 0 MISMATCH, 0 NOT RUN" in done.stdout


def test_documents_matching_every_expectation_pass(tmp_path, expected):
    docs = {os.path.splitext(n)[0]: matching_doc(n, e) for n, e in expected["candidates"].items()}
    rows = check_planted.compare(expected, docs)
    assert [r["result"] for r in rows] == ["OK"] * len(expected["candidates"])
    # a bad candidate that got through everything is a mismatch
    docs["bad_wrong_formula"] = verify_doc("bad_wrong_formula.py")
    rows = {r["file"]: r for r in check_planted.compare(expected, docs)}
    assert rows["bad_wrong_formula.py"]["result"] == "MISMATCH" and rows["bad_wrong_formula.py"]["got"] == "accepted"


def test_a_control_at_the_threshold_may_be_rejected_as_slower_only_within_noise(expected):
    entry = {"gate": None, "status": "accepted", "at_threshold": True, "note": "n"}
    exp = {"problem": "p.py", "segment": "seg0", "candidates": {"good_t.py": entry, "good_u.py": dict(entry)}}
    exp["candidates"]["good_u.py"].pop("at_threshold")
    near = verify_doc("good_t.py", "G4 performance", "slower", ratio=0.966)  # interval up to 0.976
    far = verify_doc("good_t.py", "G4 performance", "slower", ratio=0.9)  # up to 0.91
    rows = check_planted.compare(exp, {"good_t": near, "good_u": near})
    assert [r["result"] for r in rows] == ["OK at threshold", "MISMATCH"]
    assert check_planted.summary(rows) == {"ok": 1, "mismatch": 1, "not_run": 0}
    assert check_planted.compare(exp, {"good_t": far, "good_u": far})[0]["result"] == "MISMATCH"


FAKE_BINARY = r'''#!{python}
"""Stands for `kernelopt verify PROBLEM --candidate seg0=FILE -o DIR --json OUT ...`: writes the
document expected.json asks for (or a wrong one for the file named in $PLANTED_WRONG)."""
import json, os, sys
sys.path.insert(0, {tests!r})
from test_check_planted import matching_doc, verify_doc
args = sys.argv[1:]
cand = args[args.index("--candidate") + 1].split("=", 1)[1]
suite = json.load(open({expected!r}))
# Each candidate is verified on its entry's problem, else on the suite's.
assert args[0] == "verify" and args[1] == suite["candidates"][os.path.basename(cand)].get(
    "problem", suite["problem"]), args
out = args[args.index("--json") + 1]
assert args[args.index("--gate-timeout") + 1] == "60" and args[args.index("--samples") + 1] == "30"
os.makedirs(args[args.index("-o") + 1], exist_ok=True)
name = os.path.basename(cand)
entry = json.load(open({expected!r}))["candidates"][name]
doc = verify_doc(name) if name == os.environ.get("PLANTED_WRONG") else matching_doc(name, entry)
json.dump(doc, open(out, "w"))
print("verify", name)
sys.exit(0 if "optimized" in doc else 1)
'''


def test_the_suite_script_with_a_fake_binary(tmp_path, expected):
    binary = tmp_path / "kernelopt"
    binary.write_text(FAKE_BINARY.format(python=sys.executable, tests=os.path.dirname(os.path.abspath(__file__)),
                                         expected=EXPECTED))
    binary.chmod(0o755)
    out = tmp_path / "out"
    # The fake binary answers one candidate per call: the per-candidate mode of the script.
    env = dict(os.environ, PLANTED_WRONG="bad_raises.py", PLANTED_EACH="0")
    done = subprocess.run(["bash", SUITE, str(binary), str(out)], capture_output=True, text=True, env=env,
                          timeout=120, check=False, cwd=str(tmp_path))
    assert done.returncode == 1, done.stdout + done.stderr
    assert sorted(os.listdir(out)) == ["planted.json", "planted.md", "planted_runs.tgz", "suite.txt"]
    report = json.loads((out / "planted.json").read_text())
    assert report["summary"] == {"ok": len(expected["candidates"]) - 1, "mismatch": 1, "not_run": 0}
    [bad] = [r for r in report["rows"] if r["result"] != "OK"]
    assert bad["file"] == "bad_raises.py" and bad["got"] == "accepted"
    with tarfile.open(out / "planted_runs.tgz") as tar:
        names = sorted(os.path.basename(m.name) for m in tar.getmembers() if m.isfile())
    stems = sorted(os.path.splitext(n)[0] for n in expected["candidates"])
    assert names == sorted([f"{s}.json" for s in stems] + [f"{s}.txt" for s in stems] + ["log.txt"])

    # a subset, with a budget: runs only the named ones, the rest are NOT RUN (exit 2)
    out2 = tmp_path / "out2"
    done = subprocess.run(["bash", SUITE, str(binary), str(out2), "600", "good_l2_norm_rows.py", "bad_slower.py"],
                          capture_output=True, text=True, timeout=120, check=False, cwd=str(tmp_path),
                          env=dict(os.environ, PLANTED_EACH="0"))
    assert done.returncode == 2, done.stdout + done.stderr
    report = json.loads((out2 / "planted.json").read_text())
    assert report["summary"] == {"ok": 2, "mismatch": 0, "not_run": len(expected["candidates"]) - 2}
