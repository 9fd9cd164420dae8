"""Record and replay. A recording is one JSON file per request, named by the hash of the request
as normalised (provider, model, system prompt, messages, max_tokens, temperature: never a header,
a URL or the key), holding the request, the response (text and usage) and `match`: the role,
problem, segment, chain, step and retry it answered. Replay answers a request from the file of its
hash; where none has it, from a file written by hand: one with no "key", whose `match` names only
some of those fields (the others match anything: {"role": "summarizer", "problem": "p.py"} answers
every summarizer request of p.py). The most specific such file answers; two alike are an error."""

from __future__ import annotations

import hashlib
import json
import os

from .errors import LlmError

MISSING = "kernelopt.llm.replay"  # the error's tag: the engine ends that chain, not the run
MATCH_KEYS = ("role", "problem", "segment", "chain", "step", "retry")


def request_key(normalised: dict) -> str:
    text = json.dumps(normalised, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _match_of(match: dict) -> dict:
    return {k: match.get(k) for k in MATCH_KEYS}


def save(folder: str, key: str, normalised: dict, match: dict, response: dict) -> str:
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{match.get('role', 'request')}-{key}.json")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"key": key, "match": _match_of(match), "request": normalised, "response": response}, f,
                  indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, path)
    return path


def _entries(folder: str):
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="utf-8") as f:
                entry = json.load(f)
        except (OSError, ValueError) as exc:
            raise LlmError(f"{path}: not a recording ({exc})")
        if not isinstance(entry, dict) or not isinstance(entry.get("response"), dict):
            raise LlmError(f"{path}: not a recording (no 'response' object)")
        yield path, entry


def find(folder: str, key: str, match: dict) -> dict:
    """The recorded response of the request: {"text", "usage"}."""
    if not os.path.isdir(folder):
        raise LlmError(f"--llm-replay {folder}: no such folder")
    wanted = _match_of(match)
    best, best_paths = -1, []
    for path, entry in _entries(folder):
        if entry.get("key") == key:
            return entry["response"]
        given = entry.get("match") if entry.get("key") is None else None
        if not isinstance(given, dict) or any(given[k] != wanted.get(k) for k in given if k in MATCH_KEYS):
            continue
        fields = sum(1 for k in given if k in MATCH_KEYS)
        if fields > best:
            best, best_paths = fields, [(path, entry)]
        elif fields == best:
            best_paths.append((path, entry))
    if len(best_paths) == 1:
        return best_paths[0][1]["response"]
    what = ", ".join(f"{k} {wanted[k]}" for k in MATCH_KEYS if wanted[k] is not None)
    if best_paths:
        names = ", ".join(os.path.basename(p) for p, _ in best_paths)
        raise LlmError(f"{folder}: {names} all answer {what}: keep one")
    raise LlmError(f"{folder}: no recorded response for request {key} ({what})", tag=MISSING)
