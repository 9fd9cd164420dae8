"""Tokens of recorded language-model requests, counted with a tokenizer file: what a run's
prompts and answers would cost, measured on its `--llm-record` folder.

Usage: python scripts/llm_tokens.py RECORDING_DIR [RECORDING_DIR...] --tokenizer TOKENIZER_JSON
           [--price IN,OUT] [--json FILE]

TOKENIZER_JSON is a Hugging Face `tokenizers` file (the `tokenizers` package reads it; it is not
one of kernelopt's dependencies). A recording's `usage` is the provider's own count where the
model answered; this script counts the same text again, so that hand-written answers and replayed
runs, which report no usage, get a size too. Input tokens: the system prompt and every message
of the request; output tokens: the response's text. Prints a Markdown table per folder (one row
per role, then the total) and, with --json, writes the numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def fail(message: str) -> None:
    print(f"llm_tokens: {message}", file=sys.stderr)
    raise SystemExit(2)


def request_texts(request: dict) -> list[str]:
    """The texts a provider reads from a normalised request (Anthropic: `system` beside the
    messages; OpenAI-compatible: a system message among them)."""
    texts = [request["system"]] if isinstance(request.get("system"), str) else []
    for message in request.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            texts += [part.get("text", "") for part in content if isinstance(part, dict)]
    return texts


def count_folder(folder: str, encode) -> dict:
    roles: dict[str, dict] = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            entry = json.load(f)
        request, response = entry.get("request"), entry.get("response")
        if not isinstance(request, dict) or not isinstance(response, dict):
            fail(f"{os.path.join(folder, name)}: not a recording with a request (written by hand?)")
        role = (entry.get("match") or {}).get("role") or "request"
        row = roles.setdefault(role, {"requests": 0, "input_tokens": 0, "output_tokens": 0,
                                      "reported_input_tokens": 0, "reported_output_tokens": 0})
        row["requests"] += 1
        row["input_tokens"] += sum(len(encode(t)) for t in request_texts(request))
        row["output_tokens"] += len(encode(response.get("text", "")))
        usage = response.get("usage") or {}
        row["reported_input_tokens"] += int(usage.get("input_tokens", 0))
        row["reported_output_tokens"] += int(usage.get("output_tokens", 0))
    total = {k: sum(r[k] for r in roles.values()) for k in
             ("requests", "input_tokens", "output_tokens", "reported_input_tokens", "reported_output_tokens")}
    return {"folder": os.path.basename(os.path.normpath(folder)), "roles": roles, "total": total}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--tokenizer", required=True, help="a tokenizers JSON file")
    parser.add_argument("--price", help="IN,OUT: USD per million input and output tokens")
    parser.add_argument("--json", help="also write the numbers here")
    args = parser.parse_args()
    try:
        from tokenizers import Tokenizer
    except ImportError:
        fail("needs the `tokenizers` package (pip install tokenizers)")
    try:
        tokenizer = Tokenizer.from_file(args.tokenizer)
    except Exception as exc:  # noqa: BLE001
        fail(f"{args.tokenizer}: not a tokenizers file ({exc})")
    price = None
    if args.price:
        try:
            price = tuple(float(p) for p in args.price.split(","))
            assert len(price) == 2
        except (ValueError, AssertionError):
            fail(f"--price {args.price!r}: expected IN,OUT (USD per million tokens)")

    def encode(text: str) -> list:
        return tokenizer.encode(text, add_special_tokens=False).ids

    results = []
    for folder in args.folders:
        if not os.path.isdir(folder):
            fail(f"{folder}: no such folder")
        result = count_folder(folder, encode)
        if price:
            t = result["total"]
            result["total"]["cost_usd"] = round((t["input_tokens"] * price[0] + t["output_tokens"] * price[1]) / 1e6, 4)
        results.append(result)
        print(f"\n{result['folder']}\n\n| role | requests | input tokens | output tokens |\n|---|---|---|---|")
        for role, row in sorted(result["roles"].items()):
            print(f"| {role} | {row['requests']} | {row['input_tokens']} | {row['output_tokens']} |")
        t = result["total"]
        cost = f" (USD {t['cost_usd']})" if "cost_usd" in t else ""
        print(f"| total | {t['requests']} | {t['input_tokens']} | {t['output_tokens']}{cost} |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"tokenizer": os.path.basename(args.tokenizer), "folders": results}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
