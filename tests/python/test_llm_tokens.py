"""scripts/llm_tokens.py: the tokens of recorded requests, per role, counted with a tokenizer file
(a word-level one built here, so every count is known), and its refusals."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from kernelopt.llm import replay  # noqa: E402

SCRIPT = os.path.join(ROOT, "scripts", "llm_tokens.py")


def word_tokenizer(path) -> str:
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    tokenizer = Tokenizer(WordLevel({"[UNK]": 0, "a": 1}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = Whitespace()
    tokenizer.save(str(path))
    return str(path)


def record(folder, role, system, user, answer, usage=None):
    request = {"provider": "anthropic", "model": "m", "system": system,
               "messages": [{"role": "user", "content": user}], "max_tokens": 10, "temperature": 0.0}
    replay.save(str(folder), replay.request_key(request), request, {"role": role, "problem": "p.py"},
                {"text": answer, "usage": usage or {"input_tokens": 0, "output_tokens": 0}})


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=120)


def test_counts_each_roles_input_and_output_tokens(tmp_path):
    rec = tmp_path / "rec"
    record(rec, "planner", "you plan", "segment 0 of three", "fuse them")
    record(rec, "executor", "you write", "the kernel please", "one two three four", {"input_tokens": 7,
                                                                                      "output_tokens": 5})
    record(rec, "executor", "you write", "again", "x")
    out = run(str(rec), "--tokenizer", word_tokenizer(tmp_path / "t.json"), "--price", "3,15",
              "--json", str(tmp_path / "n.json"))
    assert out.returncode == 0, out.stderr
    numbers = json.load(open(tmp_path / "n.json"))["folders"][0]
    assert numbers["roles"]["planner"] == {"requests": 1, "input_tokens": 6, "output_tokens": 2,
                                           "reported_input_tokens": 0, "reported_output_tokens": 0}
    assert numbers["roles"]["executor"] == {"requests": 2, "input_tokens": 8, "output_tokens": 5,
                                            "reported_input_tokens": 7, "reported_output_tokens": 5}
    assert numbers["total"]["input_tokens"] == 14 and numbers["total"]["output_tokens"] == 7
    assert numbers["total"]["cost_usd"] == round((14 * 3 + 7 * 15) / 1e6, 4)
    assert "| total | 3 | 14 | 7 (USD" in out.stdout


def test_refuses_hand_written_answers_a_missing_folder_and_a_bad_price(tmp_path):
    tok = word_tokenizer(tmp_path / "t.json")
    hand = os.path.join(ROOT, "examples", "llm-replay")
    out = run(hand, "--tokenizer", tok)
    assert out.returncode == 2 and "not a recording with a request" in out.stderr
    out = run(str(tmp_path / "none"), "--tokenizer", tok)
    assert out.returncode == 2 and "no such folder" in out.stderr
    (tmp_path / "rec").mkdir()
    out = run(str(tmp_path / "rec"), "--tokenizer", tok, "--price", "3")
    assert out.returncode == 2 and "--price" in out.stderr
    out = run(str(tmp_path / "rec"), "--tokenizer", str(tmp_path / "missing.json"))
    assert out.returncode == 2 and "not a tokenizers file" in out.stderr
