"""Sums up scripts/gpu/gate_cost.sh's runs: per problem and side, each gate's seconds (the
`gate_seconds` the cascade records in every verdict) and verify's wall time; then the median
over problems of the seconds per candidate, before and after. Writes OUT/gate_cost.json and
OUT/gate_cost.md; prints the Markdown."""

import json
import os
import statistics
import sys

GATES = ("G1 static", "G2 isolated", "G3 model", "G4 performance")


def gate_seconds(doc) -> dict:
    """Seconds per gate over every verdict in a verify document."""
    total = {g: 0.0 for g in GATES}

    def walk(x):
        if isinstance(x, dict):
            numbers = x.get("numbers")
            if x.get("gate") in total and isinstance(numbers, dict) and \
                    isinstance(numbers.get("gate_seconds"), (int, float)):
                total[x["gate"]] += float(numbers["gate_seconds"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(doc)
    return total


def main(out: str) -> None:
    walls = {}
    path = os.path.join(out, "walls.jsonl")
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            w = json.loads(line)
            walls[(w["side"], w["problem"])] = w
    rows = []
    for (side, problem), w in sorted(walls.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        doc_path = os.path.join(out, f"{side}_{problem}.json")
        doc = json.load(open(doc_path, encoding="utf-8")) if os.path.exists(doc_path) else {}
        secs = gate_seconds(doc)
        outcome = doc.get("outcome", {})
        rows.append({"problem": problem, "side": side, "rc": w["rc"], "wall_s": round(w["wall_s"], 1),
                     "gates_s": round(sum(secs.values()), 2), **{g: round(s, 2) for g, s in secs.items()},
                     "outcome": outcome.get("class", "") if isinstance(outcome, dict) else str(outcome)})
    summary = {}
    for side in ("before", "after"):
        mine = [r for r in rows if r["side"] == side and r["rc"] == 0]
        if mine:
            summary[side] = {"problems": len(mine), "median_gates_s": statistics.median(r["gates_s"] for r in mine),
                             "median_wall_s": statistics.median(r["wall_s"] for r in mine)}
    json.dump({"rows": rows, "summary": summary}, open(os.path.join(out, "gate_cost.json"), "w"), indent=1)
    lines = ["| problem | side | rc | verify wall s | gates s | " + " | ".join(GATES) + " | outcome |",
             "|---|---|---|---|---|" + "---|" * len(GATES) + "---|"]
    for r in rows:
        lines.append(f"| {r['problem']} | {r['side']} | {r['rc']} | {r['wall_s']} | {r['gates_s']} | "
                     + " | ".join(str(r[g]) for g in GATES) + f" | {r['outcome']} |")
    lines.append("")
    for side, s in summary.items():
        lines.append(f"- {side}: {s['problems']} problems, median {s['median_gates_s']:.1f} gate seconds a "
                     f"candidate, median verify wall {s['median_wall_s']:.1f} s (capture included)")
    text = "\n".join(lines) + "\n"
    open(os.path.join(out, "gate_cost.md"), "w", encoding="utf-8").write(text)
    print(text)


if __name__ == "__main__":
    main(sys.argv[1])
