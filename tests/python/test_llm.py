"""The llm proposer's helper (python -m kernelopt.llm) against a scripted API on 127.0.0.1
(llm_server.py), which stands in for the remote Anthropic and OpenAI-compatible endpoints: request
shapes, retries on 429 and a dropped connection, one-line errors, record and replay, the prompts,
and the candidates the executor's answers become, judged on the CPU by the worker's real gate code
(G1's static_check compiles for sm_90 without a GPU; G2's check_candidate runs them under Triton's
interpreter). A recognisable fake key is in the environment throughout: no file the tests write,
and nothing the helper prints, may contain it."""

import json
import os
import socket
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from llm_server import ScriptedApi  # noqa: E402

from kernelopt.llm import prompts  # noqa: E402

FAKE_KEY = "sk-kernelopt-fake-key-7f3a9c2e51d4"
SEG0 = {"inputs": {"arg0_1": {"shape": [16, 64], "stride": [64, 1], "dtype": "float32"},
                   "arg1_1": {"shape": [64], "stride": [1], "dtype": "float32"}},
        "outputs": {"buf0": {"shape": [16, 64], "stride": [80, 1], "dtype": "float32"}}}
CONTEXT = {"problem": "fake.py", "segment": 0, "interface": SEG0, "aten": ["aten.mul", "aten.add"],
           "kernels": [{"name": "triton_poi_fused_add_mul_0", "kind": "pointwise", "aten_ops": ["aten.mul"],
                        "launch": "triton_poi_fused_add_mul_0.run(arg0_1, arg1_1, buf0, 1024)",
                        "source": "@triton.jit\ndef triton_poi_fused_add_mul_0(in_ptr0, in_ptr1, out_ptr0, xnumel, "
                                  "XBLOCK: tl.constexpr):\n    pass"}],
           "analysis": "memory_bound: 0.010 ms, 2.0x its floor", "roofline": {"time_ms": 0.01, "floor_ms": 0.005},
           "counters": {}, "strategies": [], "tried": [], "directions": [], "direction": "one pass",
           "previous": "", "result": "none yet"}
STDIO: list = []  # every stdout and stderr the helper wrote, for the key check


def variant(old: str, new: str) -> str:
    assert old in CORRECT
    return CORRECT.replace(old, new)


# The executor's answers: the correct candidate of the CPU gate tests and variants of it.
with open(os.path.join(ROOT, "tests", "candidates", "cpu", "seg0_correct.py"), encoding="utf-8") as _f:
    CORRECT = _f.read()
LAUNCH = "    _k[(x.shape[0],)](x, b, out, x.shape[1], x.stride(0), out.stride(0), BLOCK=64)"
WRONG = variant("x * 2 + b, mask=m", "x * 2 + b + 1.0, mask=m")
NO_COMPILE = variant("cols = tl.arange(0, BLOCK)", "cols = tl.arange(0, n_cols)")
HANGS = variant(LAUNCH, "    import time\n    while True:\n        time.sleep(1)")
CACHED = variant(LAUNCH, "    if out.shape in _CACHE:\n        out.copy_(_CACHE[out.shape])\n        return\n" + LAUNCH +
                 "\n    _CACHE[out.shape] = out.clone()").replace("\n\n@triton.jit", "\n_CACHE = {}\n\n\n@triton.jit", 1)
PROSE = ("Here is a one-pass kernel.\n\nIt reads each row once:\n\n```python\n" + CORRECT +
         "```\n\nThis should be faster because it launches once. A smaller example:\n```python\nprint(1)\n```\n")


def fenced(code: str) -> str:
    return "Candidate:\n```python\n" + code + "```\n"


def helper(requests: list, env: dict, timeout: float = 60) -> list:
    out = subprocess.run([sys.executable, "-m", "kernelopt.llm"], input="".join(json.dumps(r) + "\n" for r in requests),
                         capture_output=True, text=True, env=env, timeout=timeout, check=True)
    STDIO.extend([out.stdout, out.stderr])
    return [json.loads(line) for line in out.stdout.splitlines()]


def llm(provider: str, url: str | None, **extra) -> dict:
    out = {"provider": provider, "model": "scripted-model", "retries": 2, "backoff_s": 0.01, "timeout_s": 10}
    if url:
        out["base_url"] = url + ("/v1" if provider == "openai" else "")
    return {**out, **extra}


def complete(settings: dict, role: str = "executor", context: dict | None = None, **match) -> dict:
    return {"id": 1, "op": "complete", "llm": settings, "role": role, "context": context or CONTEXT,
            "match": {"problem": "fake.py", "segment": 0, "chain": 0, "step": 0, "retry": 0, **match}}


@pytest.fixture
def env(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    return dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), OPENAI_API_KEY=FAKE_KEY,
                ANTHROPIC_API_KEY=FAKE_KEY)


def no_key_in(folder) -> None:
    for base, _, files in os.walk(folder):
        for name in files:
            with open(os.path.join(base, name), "rb") as f:
                assert FAKE_KEY.encode() not in f.read(), os.path.join(base, name)
    assert all(FAKE_KEY not in text for text in STDIO)


def test_openai_shape_usage_and_the_code_out_of_prose(env, tmp_path):
    with ScriptedApi([{"answer": PROSE, "usage": [1234, 567]}]) as api:
        [reply] = helper([complete(llm("openai", api.url))], env)
    assert reply["ok"] and reply["code"] == CORRECT and not reply["replayed"]
    assert reply["usage"] == {"input_tokens": 1234, "output_tokens": 567}
    [seen] = api.requests
    assert seen["path"] == "/v1/chat/completions"
    assert seen["headers"]["authorization"] == "Bearer " + FAKE_KEY
    assert seen["body"]["model"] == "scripted-model" and seen["body"]["messages"][0]["role"] == "system"
    assert "triton_poi_fused_add_mul_0" in seen["body"]["messages"][1]["content"]
    assert FAKE_KEY not in json.dumps(seen["body"])
    no_key_in(tmp_path)


def test_anthropic_shape(env):
    with ScriptedApi([{"answer": fenced(CORRECT), "usage": [10, 20]}]) as api:
        [reply] = helper([complete(llm("anthropic", api.url))], env)
    assert reply["ok"] and reply["code"] == CORRECT and reply["usage"]["output_tokens"] == 20
    [seen] = api.requests
    assert seen["path"] == "/v1/messages" and seen["headers"]["x-api-key"] == FAKE_KEY
    assert seen["headers"]["anthropic-version"] and "authorization" not in seen["headers"]
    assert seen["body"]["system"].startswith("You are the executor")


def test_a_429_then_a_success_and_a_dropped_connection_then_a_success(env):
    script = [{"status": 429, "retry_after": "0"}, {"answer": fenced(CORRECT), "usage": [1, 2]},
              {"drop": True}, {"answer": fenced(WRONG), "usage": [3, 4]}]
    with ScriptedApi(script) as api:
        first, second = helper([complete(llm("openai", api.url)), complete(llm("openai", api.url))], env)
    assert first["ok"] and first["code"] == CORRECT
    assert second["ok"] and second["code"] == WRONG
    assert len(api.requests) == 4  # each retried once


@pytest.mark.parametrize("script, message", [
    ([{"drop": True}] * 3, "cannot reach http://127.0.0.1:"),
    ([{"status": 503}] * 3, "HTTP 503 from 127.0.0.1:"),
    ([{"status": 401}], "refused the key in OPENAI_API_KEY (HTTP 401"),
    ([{"status": 400}], "rejected the request (HTTP 400"),
])
def test_failures_are_one_line_without_the_key(env, script, message):
    with ScriptedApi(script) as api:
        [reply] = helper([complete(llm("openai", api.url))], env)
    assert not reply["ok"] and message in reply["error"]["message"]
    assert "\n" not in reply["error"]["message"] and FAKE_KEY not in reply["error"]["message"]
    assert len(api.requests) == len(script)


def test_an_unreachable_endpoint_and_a_missing_key(env):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again before the request: nothing listens there
    [reply] = helper([complete(llm("openai", f"http://127.0.0.1:{port}", retries=1))], env)
    assert not reply["ok"] and reply["error"]["message"].startswith(f"cannot reach http://127.0.0.1:{port}/v1")
    assert "(after 2 tries)" in reply["error"]["message"]
    no_key = {k: v for k, v in env.items() if k != "ANTHROPIC_API_KEY"}
    [reply] = helper([complete(llm("anthropic", None))], no_key)
    assert reply["error"]["message"] == "ANTHROPIC_API_KEY is not set: the anthropic API needs a key"


def test_record_then_replay_without_network_or_key(env, tmp_path):
    record = str(tmp_path / "rec")
    with ScriptedApi([{"answer": "Direction: one pass.", "usage": [5, 6]},
                      {"answer": PROSE, "usage": [7, 8]}]) as api:
        asked = helper([complete(llm("anthropic", api.url, record=record), role="planner"),
                        complete(llm("anthropic", api.url, record=record))], env)
    assert [r["ok"] for r in asked] == [True, True] and len(os.listdir(record)) == 2
    offline = {k: v for k, v in env.items() if k not in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY")}
    replayed = helper([complete(llm("anthropic", "http://127.0.0.1:9", replay=record), role="planner"),
                       complete(llm("anthropic", None, replay=record))], offline)
    assert [(r["text"], r["usage"], r["key"]) for r in replayed] == [(r["text"], r["usage"], r["key"]) for r in asked]
    assert all(r["replayed"] for r in replayed) and replayed[1]["code"] == CORRECT
    [entry] = [json.load(open(os.path.join(record, n))) for n in os.listdir(record) if n.startswith("executor")]
    assert set(entry) == {"key", "match", "request", "response"} and entry["match"]["role"] == "executor"
    assert "headers" not in json.dumps(entry) and "127.0.0.1" not in json.dumps(entry)
    [missing] = helper([complete(llm("anthropic", None, replay=record), role="retry",
                                 context={**CONTEXT, "retry": 1, "error": "x"}, retry=1)], offline)
    assert "no recorded response for request" in missing["error"]["message"]
    assert missing["error"]["tag"] == "kernelopt.llm.replay"
    no_key_in(tmp_path)


def test_a_hand_written_response_answers_by_its_match(env, tmp_path):
    folder = tmp_path / "hand"
    folder.mkdir()
    (folder / "executor-seg0.json").write_text(json.dumps(
        {"match": {"role": "executor", "problem": "fake.py", "segment": 0, "chain": 0, "step": 0, "retry": 0},
         "response": {"text": fenced(CORRECT), "usage": {"input_tokens": 0, "output_tokens": 0}}}))
    [reply] = helper([complete(llm("openai", None, replay=str(folder)))], env)
    assert reply["ok"] and reply["code"] == CORRECT
    [other] = helper([complete(llm("openai", None, replay=str(folder)), chain=1)], env)
    assert "no recorded response" in other["error"]["message"] and "chain 1" in other["error"]["message"]
    (folder / "summarizer.json").write_text(json.dumps(  # fields left out match anything
        {"match": {"role": "summarizer", "problem": "fake.py"}, "response": {"text": "Any chain.", "usage": {}}}))
    (folder / "summarizer-chain2.json").write_text(json.dumps(
        {"match": {"role": "summarizer", "problem": "fake.py", "chain": 2}, "response": {"text": "Chain 2."}}))
    said = helper([complete(llm("openai", None, replay=str(folder)), role="summarizer", chain=c,
                            context={**CONTEXT, "verdict": "G2"}) for c in (1, 2)], env)
    assert [r["text"] for r in said] == ["Any chain.", "Chain 2."]
    (folder / "summarizer-again.json").write_text((folder / "summarizer.json").read_text())
    [twice] = helper([complete(llm("openai", None, replay=str(folder)), role="summarizer", chain=1,
                               context={**CONTEXT, "verdict": "G2"})], env)
    assert "summarizer-again.json, summarizer.json all answer" in twice["error"]["message"]


def test_every_role_renders_and_the_retry_carries_the_gates_error():
    error = "G2 isolated rejected it: wrong_result: seed 1: 1024 of 1024 elements outside rtol=atol=1e-3"
    sizes = {}
    for role in ("planner", "executor", "retry", "summarizer"):
        system, user = prompts.render(role, {**CONTEXT, "retry": 1, "error": error, "verdict": error,
                                             "previous": WRONG})
        assert "{{" not in system + user
        sizes[role] = len(system) + len(user)
    _, user = prompts.render("retry", {**CONTEXT, "retry": 1, "error": error, "previous": WRONG})
    assert error in user and "x * 2 + b + 1.0" in user and "retry 1 of 2" in user
    with pytest.raises(prompts.LlmError, match="needs 'error'"):
        prompts.render("retry", {**CONTEXT, "retry": 1})
    assert all(s > 200 for s in sizes.values())


@pytest.mark.parametrize("text, code", [
    (fenced(CORRECT), CORRECT),
    (PROSE, CORRECT),
    ("```\n" + CORRECT + "```", CORRECT),
    (CORRECT, CORRECT.rstrip() + "\n"),
    ("I cannot help with that.", None),
    ("```python\nx = 1\n```", "x = 1\n"),
])
def test_the_code_block_is_taken_out_of_the_answer(text, code):
    assert prompts.extract_code(text) == code


def gate_env(tmp_path) -> dict:
    return dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"),
                TRITON_CACHE_DIR=str(tmp_path / "triton-cache"))


def test_each_answer_reaches_its_verdict_through_the_gates(env, tmp_path):
    answers = {"correct": fenced(CORRECT), "wrong": fenced(WRONG), "no_compile": fenced(NO_COMPILE),
               "hangs": fenced(HANGS), "cached": fenced(CACHED), "prose": PROSE}
    script = [{"status": 429, "retry_after": "0"}]
    for text in answers.values():
        script += [{"answer": text, "usage": [100, 50]}]
    with ScriptedApi(script) as api:
        replies = helper([complete(llm("openai", api.url), chain=i) for i in range(len(answers))], env)
    assert sum(r["usage"]["input_tokens"] + r["usage"]["output_tokens"] for r in replies) == 6 * 150
    files = {}
    for name, reply in zip(answers, replies):
        files[name] = tmp_path / f"seg0_llm_{name}.py"
        files[name].write_text(reply["code"])
    # G1 (static_check: compiles every launched kernel for sm_90, no GPU needed)
    static = subprocess.run([sys.executable, "-c", (
        "import json, sys\nfrom kernelopt.worker.session import Session\n"
        "print(json.dumps({p: Session().static_check({'candidate': p, 'interface': json.loads(sys.argv[1]), "
        "'arch': 90}) for p in sys.argv[2:]}))"), json.dumps(SEG0), str(files["correct"]), str(files["no_compile"])],
        capture_output=True, text=True, env=gate_env(tmp_path), timeout=300, check=True)
    g1 = json.loads(static.stdout)
    assert all(k["compiled"] for k in g1[str(files["correct"])]["kernels"])
    [bad] = g1[str(files["no_compile"])]["kernels"]
    assert bad["compiled"] is False and "constexpr" in bad["error"]
    # G2 (check_candidate under the interpreter, seeds 0 and 1, each run twice)
    driver = os.path.join(ROOT, "tests", "python", "gate_driver.py")
    out = subprocess.run([sys.executable, driver, str(tmp_path), *(str(files[n]) for n in ("correct", "wrong",
                          "cached", "prose"))], capture_output=True, text=True, env=gate_env(tmp_path),
                         timeout=300, check=True)
    checks = json.loads(out.stdout)["checks"]
    for name in ("seg0_llm_correct", "seg0_llm_prose"):
        assert [s["mismatched"] for s in checks[name]["seeds"]] == [0, 0] and checks[name]["load_error"] is None
        assert all(s["deterministic"] and s["unwritten"] == 0 for s in checks[name]["seeds"])
    assert all(s["mismatched"] == 1024 for s in checks["seg0_llm_wrong"]["seeds"])
    cached = checks["seg0_llm_cached"]["seeds"]
    assert cached[0]["mismatched"] == 0 and cached[1]["mismatched"] > 900  # seed 1 gets seed 0's result
    # the hanging one never answers: the engine's deadline on the gate request kills its worker
    with pytest.raises(subprocess.TimeoutExpired):
        subprocess.run([sys.executable, driver, str(tmp_path), str(files["hangs"])], capture_output=True,
                       env=gate_env(tmp_path), timeout=15)
    no_key_in(tmp_path)



def test_a_recording_that_cannot_be_written_is_one_line(env, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    with ScriptedApi([{"answer": fenced(CORRECT), "usage": [1, 1]}]) as api:
        [reply] = helper([complete(llm("openai", api.url, record=str(blocked / "rec")))], env)
    assert not reply["ok"] and reply["error"]["message"].startswith(("FileExistsError", "NotADirectoryError"))
    assert "\n" not in reply["error"]["message"]
