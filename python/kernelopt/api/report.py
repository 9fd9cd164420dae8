"""`Report`: what `kernelopt optimize` concluded, read from RUN_DIR/optimize.json
(docs/optimize-json.md), typed."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class SegmentResult:
    """One segment of the dispatch map and what the search made of it."""

    segment: int
    status: str  # "replaced" (its candidate is in the optimized module), "kept" or "skipped"
    why: str  # why it was skipped, or why its search stopped
    bottleneck: str | None = None  # the analyst's verdict (memory-bound, compute-bound, ...)
    strategy: str | None = None  # the best measurably faster candidate's strategy, if any
    ratio: float | None = None  # that candidate's G4 ratio alone (baseline time over its time)
    evaluated: int = 0  # candidates put through the gates


@dataclass(frozen=True)
class Report:
    """The outcome class, the whole model's speedup over torch.compile(mode="max-autotune") with
    its 95% interval, and every segment's result."""

    outcome: str  # optimized, matched (optimized), matched (synthesis failed), fallback
    reason: str  # a fallback's reason ("" otherwise)
    ratio: float | None
    ratio_low: float | None
    ratio_high: float | None
    segments: tuple
    run_dir: str
    optimized_dir: str | None  # RUN_DIR/optimized when a replacement was written
    document: dict = field(repr=False, compare=False)  # optimize.json as written

    @property
    def optimized(self) -> bool:
        return self.optimized_dir is not None

    @property
    def deployed(self) -> dict | None:
        """The written module timed as a user deploys it (`kernelopt.load` against
        torch.compile(mode="max-autotune"), each called with the inputs): `ratio`, `ratio_low`,
        `ratio_high`, `speed_class`, `module_ms`, `baseline_ms`, and `in_place`, the same for the
        module called with its inputs in place (`static_inputs()`); {"error": ...} where it could
        not be timed; None where it was not (no module, or `deployed_iters=0`)."""
        return self.document.get("deployed")

    @classmethod
    def from_run(cls, run_dir: str) -> "Report":
        with open(os.path.join(run_dir, "optimize.json"), encoding="utf-8") as f:
            return cls.from_document(json.load(f), run_dir)

    @classmethod
    def from_document(cls, doc: dict, run_dir: str) -> "Report":
        outcome = doc.get("outcome") or {}
        optimized = os.path.join(run_dir, "optimized") if doc.get("optimized") else None
        return cls(outcome=outcome.get("class", ""), reason=outcome.get("reason", "") or "",
                   ratio=outcome.get("ratio"), ratio_low=outcome.get("ratio_low"),
                   ratio_high=outcome.get("ratio_high"), segments=tuple(_segments(doc)), run_dir=run_dir,
                   optimized_dir=optimized, document=doc)

    def __str__(self) -> str:
        head = self.outcome + (f" ({self.reason})" if self.reason else "")
        if self.ratio is not None:
            head += f": {self.ratio:.3f}x [{self.ratio_low:.3f}, {self.ratio_high:.3f}]"
        deployed = self.deployed or {}
        if "ratio" in deployed:
            head += (f"; as deployed {deployed['ratio']:.3f}x [{deployed['ratio_low']:.3f}, "
                     f"{deployed['ratio_high']:.3f}]")
        rows = [f"  seg{s.segment}: {s.status}" + (f" by {s.strategy} ({s.ratio:.3f}x alone)" if s.strategy else "")
                + (f"; {s.why}" if s.why else "") for s in self.segments]
        return "\n".join([head, *rows])


def _segments(doc: dict) -> list:
    replaced = set((doc.get("optimized") or {}).get("segments", []))
    searched = {row["segment"]: row for row in doc.get("search", [])}
    out = []
    for proposal in doc.get("proposals", []):
        seg = proposal["segment"]
        row = searched.get(seg, {})
        best = row.get("best") or {}
        status = "replaced" if seg in replaced else "skipped" if proposal.get("skipped") else "kept"
        out.append(SegmentResult(segment=seg, status=status, why=proposal.get("skipped") or row.get("stopped", ""),
                                 bottleneck=row.get("bottleneck"), strategy=best.get("strategy"),
                                 ratio=best.get("ratio"), evaluated=int(row.get("evaluated", 0))))
    return out
