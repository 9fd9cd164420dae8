"""examples/llm-replay, the hand-written responses for the llm proposer's GPU run (docs/llm.md):
each executor or retry answer holds its kernel file from examples/llm-replay/kernels/; the kernels
compute what the segments compute (Triton's interpreter, small shapes, against PyTorch), the
deliberately wrong one does not, and every kernel compiles for sm_90 on the GPU's shapes within
the cards' limits (G1's static_check, no GPU needed)."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from kernelopt.llm import prompts  # noqa: E402


def gate_env(tmp_path) -> dict:
    return dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), TRITON_CACHE_DIR=str(tmp_path / "triton-cache"))


REPLAY = os.path.join(ROOT, "examples", "llm-replay")
INTERPRETED = '''
import importlib.util, json, os, sys
import torch
def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(sys.argv[1], name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
errors = {}
fro = load("frobenius_norm")
fro.CHUNK = 1024  # several chunks on a small tensor
x = torch.rand(3, 5, 40, 70)
out = torch.full_like(x, float("nan"))
fro.run({"arg0_1": x}, {"buf3": out})
errors["frobenius_norm"] = (out - x / torch.linalg.vector_norm(x)).abs().max().item()
for name in ("gelu_mean", "gelu_mean_wrong"):
    # 6 channels: masked channel tiles; 8 channels: the unmasked path the GPU's 64 take; 41 x 53
    # positions over 32 chunks: full tiles and a tail in each chunk; both layouts
    for c, h, w, layout in ((6, 9, 11, torch.channels_last), (8, 41, 53, torch.channels_last),
                            (8, 41, 53, torch.contiguous_format)):
        x = torch.randn(3, c, h, w).to(memory_format=layout)
        b = torch.randn(c)
        out = torch.full((3, c, 1, 1), float("nan"))
        load(name).run({"buf2": x, "arg1_1": b}, {"buf4": out})
        ref = torch.nn.functional.gelu(x + b[None, :, None, None]).mean(dim=(2, 3), keepdim=True)
        errors[name] = max(errors.get(name, 0.0), (out - ref).abs().max().item())
relu = load("relu_bias_nchw")
for layout in (torch.channels_last, torch.contiguous_format):
    x = torch.randn(2, 70, 5, 9).to(memory_format=layout)
    b1, b2 = torch.randn(70), torch.randn(70, 1, 1)
    out = torch.full((2, 70, 5, 9), float("nan"))
    relu.run({"buf2": x, "arg1_1": b1, "arg3_1": b2}, {"buf3": out})
    ref = torch.relu(x + b1[None, :, None, None]) + b2
    errors["relu_bias_nchw"] = max(errors.get("relu_bias_nchw", 0.0), (out - ref).abs().max().item())
gn = load("groupnorm_mean")
# 24 channels in 8 groups as in L2/23; 5 x 6 x 7 positions over one masked tile; both layouts; and
# an offset of 1000 against a spread of 1, where unshifted sums of squares would lose the variance
for offset, layout in ((0.0, torch.contiguous_format), (0.0, torch.channels_last_3d),
                       (1000.0, torch.contiguous_format)):
    x = (torch.randn(3, 24, 5, 6, 7) + offset).to(memory_format=layout)
    b, w, beta = torch.randn(24), torch.rand(24) + 0.5, torch.randn(24)
    out = torch.full((3,), float("nan"))
    gn.run({"buf0": x, "arg1_1": b, "arg3_1": w, "arg4_1": beta}, {"buf6": out})
    z = (x + b[None, :, None, None, None]).double()
    ref = torch.nn.functional.group_norm(z, 8, w.double(), beta.double(), 1e-5).mean(dim=[1, 2, 3, 4])
    errors["groupnorm_mean"] = max(errors.get("groupnorm_mean", 0.0), (out.double() - ref).abs().max().item())
print(json.dumps(errors))
'''


def test_the_replay_examples_answer_with_their_kernels_and_the_kernels_are_right(tmp_path):
    kernels = os.path.join(REPLAY, "kernels")
    answered = {}
    for name in sorted(os.listdir(REPLAY)):
        if name.endswith(".json"):
            with open(os.path.join(REPLAY, name), encoding="utf-8") as f:
                entry = json.load(f)
            assert "key" not in entry and entry["match"]["problem"] in (
                "37_FrobeniusNorm_.py", "67_Conv2d_GELU_GlobalAvgPool.py", "1_Conv2D_ReLU_BiasAdd.py",
                "23_Conv3d_GroupNorm_Mean.py")
            code = prompts.extract_code(entry["response"]["text"])
            if entry["match"]["role"] in ("executor", "retry"):
                answered[name] = [k for k in os.listdir(kernels) if open(os.path.join(kernels, k)).read() == code]
    assert answered == {"executor-1.json": ["relu_bias_nchw.py"], "executor-23.json": ["groupnorm_mean.py"],
                        "executor-37.json": ["frobenius_norm.py"],
                        "executor-67-chain0.json": ["gelu_mean.py"],
                        "executor-67-chain1.json": ["gelu_mean_wrong.py"], "retry-67-chain1.json": ["gelu_mean_wrong.py"]}
    env = dict(gate_env(tmp_path), TRITON_INTERPRET="1")
    out = subprocess.run([sys.executable, "-c", INTERPRETED, kernels], capture_output=True, text=True, env=env,
                         timeout=300, check=True)
    errors = json.loads(out.stdout)
    assert errors["frobenius_norm"] < 1e-6 and errors["gelu_mean"] < 1e-5 and errors["relu_bias_nchw"] == 0.0
    assert errors["groupnorm_mean"] < 1e-6  # against float64, the offset seed included
    assert errors["gelu_mean_wrong"] > 0.1  # G2's tolerance is 1e-3
    # G1 on the GPU's shapes: every kernel compiles for sm_90 within the H100's and H200's limits
    full = {"frobenius_norm": {"inputs": {"arg0_1": {"shape": [112, 64, 512, 512],
                                                     "stride": [16777216, 262144, 512, 1], "dtype": "float32"}},
                               "outputs": {"buf3": {"shape": [112, 64, 512, 512],
                                                    "stride": [16777216, 262144, 512, 1], "dtype": "float32"}}},
            "gelu_mean": {"inputs": {"buf2": {"shape": [128, 64, 254, 254], "stride": [4129024, 1, 16256, 64],
                                              "dtype": "float32"},
                                     "arg1_1": {"shape": [64], "stride": [1], "dtype": "float32"}},
                          "outputs": {"buf4": {"shape": [128, 64, 1, 1], "stride": [64, 1, 64, 64],
                                               "dtype": "float32"}}},
            "relu_bias_nchw": {"inputs": {"buf2": {"shape": [128, 128, 126, 126], "stride": [2032128, 1, 16128, 128],
                                                   "dtype": "float32"},
                                          "arg1_1": {"shape": [128], "stride": [1], "dtype": "float32"},
                                          "arg3_1": {"shape": [128, 1, 1], "stride": [1, 1, 1], "dtype": "float32"}},
                               "outputs": {"buf3": {"shape": [128, 128, 126, 126],
                                                    "stride": [2032128, 15876, 126, 1], "dtype": "float32"}}},
            "groupnorm_mean": {"inputs": {"buf0": {"shape": [128, 24, 22, 30, 30],
                                                   "stride": [475200, 19800, 900, 30, 1], "dtype": "float32"},
                                          **{a: {"shape": [24], "stride": [1], "dtype": "float32"}
                                             for a in ("arg1_1", "arg3_1", "arg4_1")}},
                               "outputs": {"buf6": {"shape": [128], "stride": [1], "dtype": "float32"}}}}
    static = subprocess.run([sys.executable, "-c", (
        "import json, os, sys\nfrom kernelopt.worker.session import Session\nfull = json.loads(sys.argv[1])\n"
        "print(json.dumps({n: Session().static_check({'candidate': os.path.join(sys.argv[2], n + '.py'), "
        "'interface': i, 'arch': 90}) for n, i in full.items()}))"), json.dumps(full), kernels],
        capture_output=True, text=True, env=gate_env(tmp_path), timeout=300, check=True)
    for name, result in json.loads(static.stdout).items():
        assert result["run_error"] is None and result["kernels"], (name, result)
        for k in result["kernels"]:
            assert k["compiled"] and k["spill_stores"] == 0 and k["shared_bytes"] <= 232448, (name, k)
            assert k["schedule_dependent"] == [], (name, k)
