#!/usr/bin/env python3
"""Compares the verify documents of the planted-candidate suite with tests/planted/expected.json.

usage: check_planted.py [--expected FILE] [--out DIR] SOURCE...

A SOURCE is a folder holding <candidate stem>.json files written by `kernelopt verify --json`, or a
.tgz of such a folder (as planted_suite.sh packs them); several sources merge, a later one winning
for the same candidate (so the results of several GPU runs can be compared together).

For a bad candidate, the first failing gate and its status must be the expected ones: from the
candidate's own verdicts (G1 static, G2 isolated) or, when the candidate passed those, from the
model attempt's (G3 model, G4 performance). A good candidate ("accepted") must pass its own gates
and the attempt's, and the problem's outcome must be an optimized one. A good candidate whose entry
says "at_threshold" (a correct kernel within noise of G4's minimum ratio on the problem) may
instead be rejected by G4 as slower when its interval reaches the minimum ratio ("OK at threshold").

Prints a table; with --out writes planted.md and planted.json there. Exit status: 0 when every
expected candidate has a matching result, 1 when any result mismatches, 2 when none mismatches but
some candidates have no result. Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tarfile

ACCEPTED = "accepted"
MIN_RATIO = 0.97  # G4's minimum ratio (Thresholds::min_ratio)


def load_sources(sources: list[str]) -> dict[str, dict]:
    """Candidate stem -> verify document, from folders and .tgz files (later ones win)."""
    docs: dict[str, dict] = {}
    for source in sources:
        if os.path.isdir(source):
            for name in sorted(os.listdir(source)):
                if name.endswith(".json"):
                    with open(os.path.join(source, name), encoding="utf-8") as f:
                        docs[name[:-5]] = _parse(f.read(), os.path.join(source, name))
        elif os.path.isfile(source):
            with tarfile.open(source, "r:*") as tar:
                for member in tar.getmembers():
                    base = os.path.basename(member.name)
                    if member.isfile() and base.endswith(".json"):
                        data = tar.extractfile(member).read().decode("utf-8")
                        docs[base[:-5]] = _parse(data, f"{source}:{member.name}")
        else:
            raise SystemExit(f"check_planted: {source}: no such folder or file")
    return docs


def _parse(text: str, where: str) -> dict:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        return {"_error": f"{where}: not JSON ({exc})"}
    return doc if isinstance(doc, dict) else {"_error": f"{where}: not a verify document"}


def _first_failure(gates: list) -> dict | None:
    for g in gates or []:
        if g.get("status") != "ok":
            return g
    return None


def verdict(doc: dict | None) -> dict:
    """What the document says about its one candidate: got ("accepted" or "GATE: status"), the
    failing gate's detail, the G4 ratio where there is one."""
    if doc is None:
        return {"got": "not run", "gate": None, "status": None, "detail": "", "ratio": None}
    if "_error" in doc:
        return {"got": "bad document", "gate": None, "status": None, "detail": doc["_error"], "ratio": None}
    candidates = doc.get("candidates") or []
    if len(candidates) != 1:
        return {"got": "bad document", "gate": None, "status": None,
                "detail": f"{len(candidates)} candidates, expected 1", "ratio": None}
    cand = candidates[0]
    failed = _first_failure(cand.get("gates"))
    ratio, ratio_high = None, None
    if failed is None:
        attempts = [a for a in doc.get("attempts") or [] if cand.get("segment") in (a.get("segments") or [])]
        if not cand.get("passed") or not attempts:
            return {"got": "no attempt", "gate": None, "status": None,
                    "detail": "the candidate passed G1/G2 but no model attempt was made", "ratio": None}
        attempt = attempts[0]
        for g in attempt.get("gates") or []:
            if g.get("gate") == "G4 performance" and isinstance(g.get("numbers"), dict):
                ratio, ratio_high = g["numbers"].get("ratio"), g["numbers"].get("ratio_high")
        failed = _first_failure(attempt.get("gates"))
        if failed is None:
            outcome = (doc.get("outcome") or {}).get("class", "")
            if attempt.get("passed") and "optimized" in outcome:
                return {"got": ACCEPTED, "gate": None, "status": None, "detail": outcome, "ratio": ratio}
            return {"got": "not accepted", "gate": None, "status": None,
                    "detail": f"attempt passed={attempt.get('passed')}, outcome {outcome!r}", "ratio": ratio}
    return {"got": f"{failed.get('gate')}: {failed.get('status')}", "gate": failed.get("gate"),
            "status": failed.get("status"), "detail": failed.get("detail", ""), "ratio": ratio,
            "ratio_high": ratio_high}


def expected_text(entry: dict) -> str:
    return ACCEPTED if entry.get("status") == ACCEPTED else f"{entry.get('gate')}: {entry.get('status')}"


def compare(expected: dict, docs: dict[str, dict]) -> list[dict]:
    rows = []
    for name, entry in expected["candidates"].items():
        stem = os.path.splitext(name)[0]
        v = verdict(docs.get(stem))
        want = expected_text(entry)
        state = "NOT RUN" if v["got"] == "not run" else ("OK" if v["got"] == want else "MISMATCH")
        if (state == "MISMATCH" and want == ACCEPTED and entry.get("at_threshold")
                and v["got"] == "G4 performance: slower" and (v.get("ratio_high") or 0) >= MIN_RATIO):
            state = "OK at threshold"
        rows.append({"file": name, "expected": want, "got": v["got"], "result": state, "detail": v["detail"],
                     "ratio": v["ratio"]})
    return rows


def _short(text: str, n: int = 90) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[:n - 3] + "..."


def table(rows: list[dict]) -> str:
    head = ("file", "expected", "got", "result")
    widths = [max([len(h)] + [len(str(r[h])) for r in rows]) for h in head]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(str(r[k]).ljust(w) for k, w in zip(head, widths)).rstrip())
    return "\n".join(lines)


def summary(rows: list[dict]) -> dict:
    counts = {k: sum(r["result"] == v for r in rows)
              for k, v in (("ok", "OK"), ("mismatch", "MISMATCH"), ("not_run", "NOT RUN"))}
    counts["ok"] += sum(r["result"] == "OK at threshold" for r in rows)
    return counts


def markdown(rows: list[dict], counts: dict) -> str:
    out = ["# Planted-candidate suite", "",
           f"{counts['ok']} OK, {counts['mismatch']} MISMATCH, {counts['not_run']} NOT RUN "
           f"(of {len(rows)}; expectations: tests/planted/expected.json)", "",
           "| file | expected | got | result | G4 ratio | detail |", "|---|---|---|---|---|---|"]
    for r in rows:
        ratio = f"{r['ratio']:.3f}" if isinstance(r["ratio"], (int, float)) else ""
        detail = _short(r["detail"]).replace("|", "\\|")
        out.append(f"| {r['file']} | {r['expected']} | {r['got']} | {r['result']} | {ratio} | {detail} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--expected", default=os.path.join(here, "..", "..", "tests", "planted", "expected.json"))
    parser.add_argument("--out", help="folder for planted.md and planted.json")
    parser.add_argument("sources", nargs="+", help="folders or .tgz files of <candidate>.json verify documents")
    args = parser.parse_args(argv)
    with open(args.expected, encoding="utf-8") as f:
        expected = json.load(f)
    rows = compare(expected, load_sources(args.sources))
    counts = summary(rows)
    print(table(rows))
    print(f"\n{counts['ok']} OK, {counts['mismatch']} MISMATCH, {counts['not_run']} NOT RUN of {len(rows)}")
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "planted.md"), "w", encoding="utf-8") as f:
            f.write(markdown(rows, counts))
        with open(os.path.join(args.out, "planted.json"), "w", encoding="utf-8") as f:
            json.dump({"problem": expected.get("problem"), "summary": counts, "rows": rows}, f, indent=1)
            f.write("\n")
    if counts["mismatch"]:
        return 1
    return 2 if counts["not_run"] else 0


if __name__ == "__main__":
    sys.exit(main())
