"""Stress seeds: inputs and parameters that `get_inputs()` and the model's initialisation never
produce, so that a kernel right only on the problem's own distribution is seen by G2 and G3.

A seed below `FIRST_STRESS_SEED` draws `get_inputs()` under `torch.manual_seed(seed)`. A stress
seed draws the same way and then transforms every floating input tensor:
- `shifted` (101): x * 2 + 256 * spread, the offset large against the spread (its standard
  deviation, 1 where that is 0): single-pass variances and unshifted exponentials break here;
- `discrete` (102): relu(round(2 x) / 2): many exact ties and zeros (argmax/argmin tie order,
  comparisons with `>=` against `>`);
- `nonfinite` (103): NaN, +inf and -inf put at random places (one element in 512, at least one of
  each): a kernel must propagate them where the compiler's segment does;
- `redrawn` (104): the inputs as drawn, and every floating parameter and buffer of the model
  redrawn around its own scale (a LayerNorm's weight is no longer all ones, nor its bias all
  zeros; a buffer that holds no negative value keeps none).
Integer and boolean tensors are never transformed: they may be indices or masks.
"""

from __future__ import annotations

FIRST_STRESS_SEED = 100
KINDS = {101: "shifted", 102: "discrete", 103: "nonfinite", 104: "redrawn"}
REDRAWN = 104


def kind(seed: int) -> str:
    """The stress kind of a seed, or "" for a plain draw of get_inputs()."""
    return KINDS.get(int(seed), "")


def _generator(seed: int, device):
    import torch

    g = torch.Generator(device=device)
    g.manual_seed(1_000_003 * int(seed) + 17)
    return g


def _spread(x) -> float:
    import math

    s = float(x.double().std()) if x.numel() > 1 else 0.0
    return s if math.isfinite(s) and s > 0 else 1.0


def _nonfinite(x, g):
    import torch

    out = x.clone()
    flat = out.view(-1) if out.is_contiguous() else out.reshape(-1)
    n = flat.numel()
    count = max(3, n // 512)
    where = torch.randperm(n, generator=g, device=x.device)[:count]
    values = torch.tensor([float("nan"), float("inf"), float("-inf")], dtype=x.dtype, device=x.device)
    flat[where] = values[torch.arange(where.numel(), device=x.device) % 3]
    return out if out.is_contiguous() else flat.view(x.shape)


def transform_inputs(seed: int, inputs: list) -> list:
    """The stress seed's transformation of inputs drawn under its seed; plain seeds unchanged."""
    import torch

    name = kind(seed)
    if name in ("", "redrawn"):
        return inputs
    out = []
    for x in inputs:
        if not (isinstance(x, torch.Tensor) and x.is_floating_point() and x.numel()):
            out.append(x)
            continue
        if name == "shifted":
            y = x * 2 + 256 * _spread(x)
        elif name == "discrete":
            y = torch.relu(torch.round(x * 2) / 2)
        else:
            y = _nonfinite(x, _generator(seed, x.device))
        out.append(y.to(x.dtype))
    return out


def redrawn_state(seed: int, named: dict) -> dict:
    """New values for the model's floating parameters and buffers (name -> host tensor): each
    x * (1 + u/2) + n * scale / 2, u and n standard normal, scale the mean absolute value (1 where
    that is 0), made non-negative again where x held no negative value."""
    import torch

    g = torch.Generator()
    g.manual_seed(1_000_003 * int(seed) + 29)
    out = {}
    for name, t in named.items():
        if not (isinstance(t, torch.Tensor) and t.is_floating_point() and t.numel()):
            continue
        x = t.detach().to("cpu", torch.float64)
        scale = float(x.abs().mean())
        scale = scale if scale > 0 and scale == scale else 1.0
        u = torch.randn(x.shape, generator=g, dtype=torch.float64)
        n = torch.randn(x.shape, generator=g, dtype=torch.float64)
        y = x * (1 + u / 2) + n * scale / 2
        if bool((x >= 0).all()):
            y = y.abs()
        out[name] = y.to(t.dtype)
    return out
