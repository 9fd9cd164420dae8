"""Segment 0: cross-entropy (mean) of f32[32768, 4096] logits, i64 targets, ignore_index -100.

Written by kernelopt from the cross_entropy recipe (python/kernelopt/recipes/cross_entropy.py).
"""

from kernelopt.recipes.cross_entropy import cross_entropy


def run(inputs, outputs):
    x = next(t for t in inputs.values() if t.is_floating_point())
    target = next(t for t in inputs.values() if not t.is_floating_point())
    (out,) = outputs.values()
    cross_entropy(x, target, out, "mean", -100, 1, 8)
