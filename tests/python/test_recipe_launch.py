"""Each recipe's launch(inputs, outputs, params, settings): the one place where the parameters the
engine matched (C++, `propose/recipes/`) and the launch settings become the recipe's call. The
kernels are replaced by recorders here; test_recipes.py runs them under Triton's interpreter."""

import pytest
import torch

from kernelopt.recipes import (cross_entropy, gemm, group_norm, norm_dim, pool, reduce_dim,
                               row_two_pass, scan)


class Recorder:
    """Stands in for a recipe's kernel function: keeps the arguments of each call."""

    def __init__(self):
        self.calls = []

    def __call__(self, *args, **kwargs):
        self.calls.append((args, kwargs))

    @property
    def only(self):
        assert len(self.calls) == 1
        return self.calls[0]


@pytest.fixture
def record(monkeypatch):
    def patch(module, name):
        recorder = Recorder()
        monkeypatch.setattr(module, name, recorder)
        return recorder
    return patch


def same_view(a, b):
    return (a.data_ptr() == b.data_ptr() and a.shape == b.shape and a.stride() == b.stride()
            and a.storage_offset() == b.storage_offset())


def test_reduce_dim_passes_dim_op_and_tiles_with_defaults(record):
    calls = record(reduce_dim, "reduce_dim")
    x, out = torch.empty(2, 3, 4), torch.empty(2, 4)
    reduce_dim.launch({"arg0_1": x}, {"buf0": out}, {"dim": 1, "op": "min"}, {"rows_per_step": 2})
    args, kwargs = calls.only
    assert args[0] is x and args[1] is out and args[2:] == (1, "min", 2, 256, 4) and not kwargs


def test_row_two_pass_views_rows_and_keeps_split_default(record):
    calls = record(row_two_pass, "row_two_pass")
    x, out = torch.empty(2, 3, 8), torch.empty(2, 3, 8)
    row_two_pass.launch({"a": x}, {"b": out}, {"op": "log_softmax"},
                        {"block": 1024, "num_warps": 4, "reverse": 0})
    args, kwargs = calls.only
    assert args[0].shape == (6, 8) and args[1].shape == (6, 8)
    assert args[2:] == ("log_softmax", 1024, 4, 1, 0) and kwargs == {"split": 1}
    row_two_pass.launch({"a": x}, {"b": out}, {"op": "softmax"}, {"split": 0})
    assert calls.calls[1][0][2:] == ("softmax", 2048, 8, 1, 1) and calls.calls[1][1] == {"split": 0}


def test_cross_entropy_finds_logits_and_targets_by_dtype(record):
    calls = record(cross_entropy, "cross_entropy")
    t, x, out = torch.zeros(4, dtype=torch.int64), torch.empty(4, 5), torch.empty(())
    cross_entropy.launch({"t": t, "x": x}, {"o": out}, {"reduction": "sum", "ignore_index": 3},
                         {"rows": 4})
    args, _ = calls.only
    assert args[0] is x and args[1] is t and args[2] is out and args[3:] == ("sum", 3, 4, 8)


def test_scan_reads_inputs_by_name_and_carries_the_forms(record):
    calls = record(scan, "cumsum_rows")
    x, m, out = torch.empty(3, 10), torch.empty(3, 10), torch.empty(3, 10)
    scan.launch({"m": m, "x": x}, {"o": out}, {"x": "x", "mask": "m", "reverse": True},
                {"block": 2048})
    args, kwargs = calls.only
    assert same_view(args[0], x) and same_view(args[2], m)
    assert args[3:] == (True, 1, 2048, 4, "sum") and kwargs == {"minus": False}
    wide = torch.empty(3, 11)
    scan.launch({"x": x}, {"o": wide}, {"x": "x", "mask": None, "reverse": False, "prepend": True,
                                        "scale": 0.25, "minus": True, "op": "prod"}, {})
    args, kwargs = calls.calls[1]
    assert args[1].shape == (3, 11) and args[2] is None
    assert args[3:] == (False, 1, 1024, 4, "prod")
    assert kwargs == {"minus": True, "scale": 0.25, "prepend": True}
    scan.launch({"x": x}, {"o": out}, {"x": "x", "mask": None, "reverse": False,
                                       "exclusive": True}, {})
    assert calls.calls[2][1] == {"minus": False, "exclusive": True}


def test_group_and_layer_norm_take_tensors_by_name_and_eps_from_text(record):
    groups = record(group_norm, "group_norm")
    layers = record(group_norm, "layer_norm")
    x, w, b, out = (torch.empty(2, 4, 3) for _ in range(4))
    inputs = {"arg0_1": w, "arg1_1": b, "arg2_1": x}
    params = {"x": "arg2_1", "weight": "arg0_1", "bias": None, "groups": 2, "eps": "1e-05"}
    group_norm.launch(inputs, {"o": out}, params, {"block": 1024})
    args, _ = groups.only
    assert args[0] is x and args[1] is w and args[2] is None and args[3] is out
    assert args[4:] == (2, 1e-05, 1024, 8, 4, 0, 1)
    group_norm.launch(inputs, {"o": out}, {**params, "kind": "layer", "dims": 2, "bias": "arg1_1"},
                      {"split": 3, "reverse": 0})
    args, _ = layers.only
    assert args[2] is b and args[4:] == (2, 1e-05, 4096, 8, 4, 3, 0)


def test_norm_dim_walks_columns_or_rows(record):
    calls = record(norm_dim, "norm_dim")
    x, w, out = torch.empty(2, 3, 4), torch.empty(3), torch.empty(2, 3, 4)
    params = {"x": "a", "weight": None, "dim": 1, "p": 2, "mean": True, "eps": 1e-6, "clamp": 0.0}
    norm_dim.launch({"a": x}, {"o": out}, params, {"rows_per_step": 0, "cols_per_program": 32})
    args, kwargs = calls.only
    assert args == (x, out, 1) and kwargs == {"p": 2, "mean": True, "eps": 1e-6, "clamp": 0.0,
                                              "weight": None, "rows_per_step": 0,
                                              "cols_per_program": 32, "num_warps": 4}
    norm_dim.launch({"a": x, "w": w}, {"o": out}, {**params, "weight": "w", "last": True},
                    {"block": 4096, "num_warps": 16, "programs_per_sm": 0, "reverse": 0})
    args, kwargs = calls.calls[1]
    assert kwargs["weight"] is w
    assert {k: kwargs[k] for k in ("block", "num_warps", "programs_per_sm", "reverse", "split")} == {
        "block": 4096, "num_warps": 16, "programs_per_sm": 0, "reverse": False, "split": 1}


def test_pools_unsqueeze_and_pass_the_pool_arguments(record):
    maxes = record(pool, "max_pool")
    avgs = record(pool, "avg_pool")
    x, out = torch.empty(2, 3, 40), torch.empty(2, 3, 1, 12)
    params = {"op": "max", "x": "arg0_1", "unsqueeze": -2, "kernel": [1, 8], "stride": [1, 1],
              "padding": [0, 4], "dilation": [1, 3], "ceil_mode": False}
    pool.launch({"arg0_1": x}, {"o": out}, params, {"rows": 1, "block": 256, "sliding": 1})
    args, kwargs = maxes.only
    assert args[0].shape == (2, 3, 1, 40) and args[1] is out
    assert args[2:] == ([1, 8], [1, 1], [0, 4], [1, 3])
    assert kwargs == {"ceil_mode": False, "rows": 1, "block": 256, "num_warps": 4, "sliding": 1}
    avg = {"op": "avg", "x": "arg0_1", "unsqueeze": None, "kernel": [3], "stride": [2],
           "padding": [1], "dilation": [1], "ceil_mode": True, "count_include_pad": False,
           "divisor_override": 5}
    pool.launch({"arg0_1": x}, {"o": out}, avg, {})
    args, kwargs = avgs.only
    assert args[0] is x and args[2:] == ([3], [2], [1], True, False, 5)
    assert kwargs == {"rows": 4, "block": 256, "num_warps": 4}


def test_gemm_reinterprets_reshapes_and_puts_the_bias_first(record):
    calls = record(gemm, "gemm")
    a, b, bias = torch.randn(4, 6), torch.randn(24), torch.randn(5)
    out = torch.empty(20)
    params = {"operands": [{"name": "bias", "view": {"size": "(4, 5)", "stride": "(0, 1)",
                                                     "offset": 0}},
                           {"name": "a", "view": None},
                           {"name": "b", "view": {"size": "[6, 4]", "stride": "[1, 6]",
                                                  "offset": 0}, "reshape": "(6, 4)"}],
              "out": "out", "out_shape": "(4, 5)", "alpha": "0.5", "beta": "1"}
    gemm.launch({"a": a, "b": b, "bias": bias}, {"out": out}, params, {"block_m": 32})
    args, kwargs = calls.only
    assert args[0] is a and args[1].shape == (6, 4) and args[1].stride() == (1, 6)
    assert args[2].shape == (4, 5) and args[2].data_ptr() == out.data_ptr()
    assert args[3].shape == (4, 5) and args[3].stride() == (0, 1)
    assert args[4:] == (0.5, 1)
    assert kwargs == {"block_m": 32, "block_n": 64, "block_k": 32, "group_m": 8, "num_warps": 4,
                      "num_stages": 3}
