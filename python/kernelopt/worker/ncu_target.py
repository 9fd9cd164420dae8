"""The program the engine's profiler runs under Nsight Compute: it builds the problem, compiles
it as the worker does (max-autotune-no-cudagraphs; the run's Inductor cache makes this a load),
runs one forward to warm up, then one inside the NVTX range "kernelopt" that ncu profiles.

usage: python3 -m kernelopt.worker.ncu_target PROBLEM.py"""

import sys


def main(argv: list) -> int:
    import torch

    from .problem import load_problem, run_forward

    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    problem = load_problem(argv[0], "cuda")
    inputs = problem.make_inputs(0)
    problem.model = torch.compile(problem.model, mode="max-autotune-no-cudagraphs")
    run_forward(problem, inputs)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push("kernelopt")
    run_forward(problem, inputs)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
