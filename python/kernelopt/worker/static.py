"""G1's measurements, without a GPU: does the candidate import, define run(inputs, outputs), and
compile every kernel it launches for the target GPU; how much shared memory and how many
registers each needs.

`run` is called with tensors on the `meta` device while `JITFunction.run` is replaced by a
function that binds the launch's arguments with Triton's own binder (signature, constexprs and
divisibility attributes exactly as a real launch would derive them) and compiles for
GPUTarget("cuda", arch, 32) instead of launching; `@triton.autotune` compiles every config.
Registers and spills come from running the bundled `ptxas -v` on the kernel's PTX, and the PTX is
read for what makes a kernel's result depend on where or when its blocks run (`schedule_dependent`).
"""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import tempfile
import time

from .errors import one_line


def _first_line(exc: BaseException) -> str:
    """Triton's compilation errors start with the location; the cause is on the last line."""
    lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
    if type(exc).__name__ == "CompilationError" and len(lines) > 1:
        return f"{type(exc).__name__}: {lines[-1]} ({lines[0].rstrip(':')})"
    return one_line(exc)


def ptxas_usage(ptx: str, arch: int) -> dict:
    """registers / spill bytes / stack bytes from `ptxas -v`; nulls where ptxas is unavailable."""
    usage = {"registers": None, "spill_stores": None, "spill_loads": None, "stack_bytes": None}
    try:
        from triton.backends.nvidia.compiler import get_ptxas, sm_arch_from_capability

        ptxas = get_ptxas(arch).path
        gpu_name = sm_arch_from_capability(arch)
    except Exception:  # no NVIDIA backend in this triton: leave the nulls
        return usage
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.ptx")
        with open(src, "w", encoding="utf-8") as f:
            f.write(ptx)
        proc = subprocess.run([ptxas, "-v", f"--gpu-name={gpu_name}", src, "-o", os.path.join(tmp, "k.o")],
                              capture_output=True, text=True, timeout=120, check=False)
    log = proc.stdout + proc.stderr
    for key, pattern in (("registers", r"Used (\d+) registers"), ("spill_stores", r"(\d+) bytes spill stores"),
                         ("spill_loads", r"(\d+) bytes spill loads"), ("stack_bytes", r"(\d+) bytes stack frame")):
        m = re.search(pattern, log)
        if m:
            usage[key] = int(m.group(1))
    return usage


# PTX special registers whose value depends on scheduling: the SM, the physical warp slot, the clocks.
SCHEDULE_REGISTERS = re.compile(r"%(smid|nsmid|warpid|nwarpid|clock64|clock_hi|clock|globaltimer_lo|globaltimer_hi|"
                                r"globaltimer)\b")
FLOAT_TYPES = {"f16", "f16x2", "bf16", "bf16x2", "f32", "f64"}


def schedule_dependence(ptx: str) -> list[str]:
    """What in a kernel's PTX makes its result depend on where or when its blocks run, one line per
    kind found: a float add done atomically (`atom`/`red` with `.add` on a float type: the order
    the adds arrive in decides the last bits), or a read of a special register that names the SM,
    the warp slot or a clock. Integer atomics, and float atomic min/max (order-free), are not listed."""
    found: dict[str, None] = {}
    for line in ptx.splitlines():
        code = line.split("//", 1)[0].strip()
        if not code or code.startswith("."):
            continue
        tokens = code.split()
        if tokens[0].startswith("@"):  # a predicate guard (`@%p1 red.global...`) comes first
            tokens = tokens[1:] or [""]
        opcode = tokens[0]
        pieces = opcode.split(".")
        if pieces[0] in ("atom", "red") and "add" in pieces and FLOAT_TYPES & set(pieces):
            found[f"a float atomic add ({opcode})"] = None
        for m in SCHEDULE_REGISTERS.finditer(code):
            found[f"reads %{m.group(1)}"] = None
    return list(found)


class Compiler:
    """Stands in for launches: compiles each distinct (kernel, signature, constexprs, options)."""

    def __init__(self, arch: int):
        from triton.backends.compiler import GPUTarget
        from triton.compiler import make_backend

        self.arch = arch
        self.target = GPUTarget("cuda", arch, 32)
        self.backend = make_backend(self.target)
        self.kernels: dict = {}  # key -> report entry, in first-launch order
        self._binders: dict = {}

    def launch(self, fn, args, grid, kwargs):
        from triton import knobs
        from triton.runtime.jit import create_function_from_signature

        kwargs = dict(kwargs)
        kwargs["debug"] = kwargs.get("debug", fn.debug) or knobs.runtime.debug
        kwargs["instrumentation_mode"] = knobs.compilation.instrumentation_mode
        name = getattr(fn, "__name__", str(fn))
        try:
            if id(fn) not in self._binders:
                self._binders[id(fn)] = create_function_from_signature(fn.signature, fn.params, self.backend)
            bound, specialization, options = self._binders[id(fn)](*args, **kwargs)
            options, signature, constexprs, attrs = fn._pack_args(self.backend, kwargs, bound, specialization,
                                                                  options)
        except Exception as exc:  # arguments that do not bind are the candidate's error
            key = (id(fn), "bind", one_line(exc))
            entry = self.kernels.setdefault(key, _entry(name, {}, None, None))
            entry.update(launches=entry["launches"] + 1, error=_first_line(exc))
            return None
        key = (id(fn), tuple(signature.items()), repr(sorted(constexprs.items())), repr(options))
        entry = self.kernels.get(key)
        if entry is None:
            shown = {fn.arg_names[k[0]]: _plain(v) for k, v in constexprs.items() if len(k) == 1}
            entry = self.kernels[key] = _entry(name, shown, options.num_warps, options.num_stages)
            entry["grid"] = _grid(grid, bound)
            entry["kernel"] = self._compile(fn, signature, constexprs, attrs, options, entry)
        entry["launches"] += 1
        return entry["kernel"]

    def _compile(self, fn, signature, constexprs, attrs, options, entry):
        import triton
        from triton.compiler import ASTSource

        t0 = time.perf_counter()
        try:
            kernel = triton.compile(ASTSource(fn, signature, constexprs, attrs), target=self.target,
                                    options=options.__dict__)
        except Exception as exc:  # a kernel that does not compile is the candidate's error
            entry.update(compiled=False, error=_first_line(exc), compile_s=time.perf_counter() - t0)
            return None
        entry.update(compiled=True, compile_s=time.perf_counter() - t0, shared_bytes=int(kernel.metadata.shared),
                     num_warps=int(kernel.metadata.num_warps), signature=dict(signature))
        ptx = kernel.asm.get("ptx", "")
        entry.update(ptxas_usage(ptx, self.arch))
        entry["schedule_dependent"] = schedule_dependence(ptx)
        return kernel

    def report(self) -> list:
        return [{k: v for k, v in e.items() if k != "kernel"} for e in self.kernels.values()]


def _entry(name, constexprs, num_warps, num_stages) -> dict:
    return {"name": name, "constexprs": constexprs, "num_warps": num_warps, "num_stages": num_stages,
            "compiled": False, "error": None, "shared_bytes": None, "registers": None, "spill_stores": None,
            "spill_loads": None, "stack_bytes": None, "grid": None, "launches": 0, "schedule_dependent": [],
            "kernel": None}


def _plain(value):
    return value if isinstance(value, (int, float, bool, str, type(None))) else repr(value)


def _grid(grid, bound) -> list | None:
    try:
        g = grid(bound) if callable(grid) else grid
        return [int(x) for x in g]
    except Exception:  # a grid we cannot evaluate here is not an error of the candidate
        return None


class intercepted:
    """Replaces launches by compiles for the duration of a `with` block."""

    def __init__(self, compiler: Compiler):
        self.compiler = compiler
        self._saved = None

    def __enter__(self):
        from triton.runtime.autotuner import Autotuner
        from triton.runtime.jit import JITFunction

        compiler = self.compiler
        self._saved = (JITFunction.run, Autotuner.run)

        def run(fn, *args, grid, warmup, **kwargs):
            return compiler.launch(fn, args, grid, kwargs)

        def tune(tuner, *args, **kwargs):  # every config, not the fastest: each must compile
            tuner.nargs = dict(zip(tuner.arg_names, args))
            result = None
            for config in tuner.configs:
                result = tuner.fn.run(*args, **kwargs, **config.all_kwargs())
            tuner.nargs = None
            return result

        JITFunction.run, Autotuner.run = run, tune
        self._inductor = _inductor_autotuner()
        if self._inductor is not None:  # Inductor-style kernels: compile each config, never launch
            self._saved_inductor = self._inductor.run

            def inductor_run(tuner, *args, stream=None, benchmark_run=False, **kwargs):
                result = None
                for config in tuner.configs:
                    options = {**kwargs, **config.all_kwargs()}
                    given = set(tuner.fn.arg_names[:len(args)]) | set(options)
                    options.update({k: v for k, v in tuner.triton_meta.get("constants", {}).items()
                                    if isinstance(k, str) and k not in given})
                    result = compiler.launch(tuner.fn, args, None, options)
                return result

            self._inductor.run = inductor_run
        return self

    def __exit__(self, *exc):
        from triton.runtime.autotuner import Autotuner
        from triton.runtime.jit import JITFunction

        JITFunction.run, Autotuner.run = self._saved
        if self._inductor is not None:
            self._inductor.run = self._saved_inductor
        return False


def _inductor_autotuner():
    """Inductor's CachingAutotuner class (its kernels launch without JITFunction.run), if torch
    is there."""
    try:
        from torch._inductor.runtime.triton_heuristics import CachingAutotuner
    except ImportError:
        return None
    return CachingAutotuner


def meta_tensors(interface: dict) -> tuple[dict, dict]:
    """Tensors on the meta device from the interface; an in-place root is one tensor in both."""
    import torch

    def meta(desc):
        return torch.empty_strided(desc["shape"], desc["stride"], dtype=getattr(torch, desc["dtype"]),
                                   device="meta")

    inputs = {r: meta(d) for r, d in interface.get("inputs", {}).items()}
    outputs = {r: inputs[r] if r in inputs else meta(d) for r, d in interface.get("outputs", {}).items()}
    return inputs, outputs


def run_parameters(module) -> list | None:
    """The names of `run`'s parameters, or None when the module has no callable `run`."""
    run = getattr(module, "run", None)
    if not callable(run):
        return None
    try:
        return list(inspect.signature(run).parameters)
    except (TypeError, ValueError):
        return None


def static_check(path: str, interface: dict, arch: int, load) -> dict:
    """Everything G1 needs; `load(path)` imports the candidate (may raise: reported, not raised)."""
    from .errors import failure

    t0 = time.perf_counter()
    result = {"loaded": False, "import_error": None, "import_error_kind": None, "has_run": False,
              "run_params": None, "run_error": None, "run_error_kind": None, "kernels": [], "arch": arch}
    try:
        module = load(path)
    except SyntaxError as exc:
        result.update(import_error=one_line(exc), import_error_kind="syntax")
    except Exception as exc:  # an import-time failure of the candidate is data
        error = failure(exc)
        result.update(import_error=error["message"], import_error_kind=error["kind"])
    else:
        result["loaded"] = True
        params = run_parameters(module)
        result["run_params"] = params
        result["has_run"] = params is not None and len(params) == 2
        if result["has_run"]:
            compiler = Compiler(arch)
            inputs, outputs = meta_tensors(interface)
            try:
                with intercepted(compiler):
                    module.run(inputs, outputs)
            except Exception as exc:  # e.g. .item() on a meta tensor: the engine decides
                error = failure(exc)
                result.update(run_error=error["message"], run_error_kind=error["kind"])
            result["kernels"] = compiler.report()
    result["seconds"] = time.perf_counter() - t0
    return result
