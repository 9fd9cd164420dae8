"""cuBLASLt's fused epilogues: a Linear with bias followed by ReLU, or by GELU in its tanh form,
rewritten into one call of `kernelopt_vendor::linear_act`, which runs ATen's `_addmm_activation`
on CUDA (one cuBLASLt matmul with the bias and the activation in its epilogue).

The op is opaque to Inductor (a custom op is kept as an extern call), so the compiler can neither
split it back into `mm` plus a Triton epilogue nor fuse it into a template. Only pairs whose
arithmetic the epilogue reproduces are rewritten: cuBLASLt's GELU epilogue is the tanh
approximation (ATen's own CUDA fallback applies `gelu(approximate="tanh")`), so a model's exact
(erf) GELU is left alone and named as the reason. On other devices the op computes `addmm`
followed by the same activation the model had, so the rewritten model equals the original one."""

from __future__ import annotations

import copy

import torch

_ACTS = ("relu", "gelu_tanh")


@torch.library.custom_op("kernelopt_vendor::linear_act", mutates_args=())
def linear_act(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, act: str) -> torch.Tensor:
    """`act(x @ weight.T + bias)` for act in ("relu", "gelu_tanh"), x of any rank >= 2."""
    x2 = x.reshape(-1, x.shape[-1])
    if x.is_cuda:
        out = torch._addmm_activation(bias, x2, weight.t(), use_gelu=act == "gelu_tanh")
    else:
        # Off CUDA, _addmm_activation's GELU is the exact one: apply the model's own function.
        out = torch.addmm(bias, x2, weight.t())
        out = torch.relu(out) if act == "relu" else torch.nn.functional.gelu(out, approximate="tanh")
    return out.reshape(*x.shape[:-1], weight.shape[0])


@linear_act.register_fake
def _linear_act_fake(x, weight, bias, act):
    return x.new_empty(*x.shape[:-1], weight.shape[0])


def _activation(gm, node):
    """("relu" | "gelu_tanh" | "gelu_erf" | None) for an FX node."""
    F = torch.nn.functional
    if node.op == "call_module":
        mod = gm.get_submodule(node.target)
        if isinstance(mod, torch.nn.ReLU):
            return "relu"
        if isinstance(mod, torch.nn.GELU):
            return "gelu_tanh" if mod.approximate == "tanh" else "gelu_erf"
    elif node.op == "call_function":
        if node.target in (F.relu, torch.relu):
            return "relu"
        if node.target is F.gelu:
            return "gelu_tanh" if node.kwargs.get("approximate", "none") == "tanh" else "gelu_erf"
    elif node.op == "call_method" and node.target == "relu":
        return "relu"
    return None


def _linear_parts(gm, node):
    """(weight, bias) of a Linear node as (module path or node) pairs, or None."""
    F = torch.nn.functional
    if node.op == "call_module" and isinstance(gm.get_submodule(node.target), torch.nn.Linear):
        mod = gm.get_submodule(node.target)
        return (f"{node.target}.weight", f"{node.target}.bias" if mod.bias is not None else None)
    if node.op == "call_function" and node.target is F.linear:
        args = list(node.args) + [None] * 3
        return (args[1], node.kwargs.get("bias", args[2]))
    return None


def find_pairs(gm):
    """The (linear node, activation node, act) pairs the epilogue can fuse, and the reasons the
    other Linear nodes cannot."""
    pairs, reasons = [], []
    for node in gm.graph.nodes:
        parts = _linear_parts(gm, node)
        if parts is None:
            continue
        users = list(node.users)
        act = _activation(gm, users[0]) if len(users) == 1 else None
        if act is None:
            reasons.append(f"{node.name}: not followed by ReLU or GELU alone")
        elif parts[1] is None:
            reasons.append(f"{node.name}: Linear without bias")
        elif act == "gelu_erf":
            reasons.append(f"{node.name}: exact (erf) GELU; cuBLASLt's GELU epilogue is the tanh form")
        else:
            pairs.append((node, users[0], act))
    return pairs, reasons


def trace(model):
    """The model as an FX GraphModule (of a deep copy), or raises with the tracer's reason."""
    return torch.fx.symbolic_trace(copy.deepcopy(model))


def rewrite(model):
    """A copy of `model` with every fusable Linear + activation pair replaced by linear_act."""
    gm = trace(model)
    pairs, _ = find_pairs(gm)
    for lin, act_node, act in pairs:
        weight, bias = _linear_parts(gm, lin)
        with gm.graph.inserting_before(act_node):
            w = gm.graph.get_attr(weight) if isinstance(weight, str) else weight
            b = gm.graph.get_attr(bias) if isinstance(bias, str) else bias
            fused = gm.graph.call_function(torch.ops.kernelopt_vendor.linear_act.default,
                                           (lin.args[0], w, b, act))
        act_node.replace_all_uses_with(fused)
        gm.graph.erase_node(act_node)
        gm.graph.erase_node(lin)
    gm.graph.lint()
    gm.recompile()
    return gm
