"""What the scripts/gpu/*.py scripts share: loading a candidate file as a module, writing the
chosen launch constants back into it (module-level `NAME = <int>` lines), and timing two callables
interleaved."""

import importlib.util
import os
import random
import re
import shutil
import statistics


def load_module(path, name="candidate"):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rewrite_constants(path, values, copy_to=None):
    """Sets each `NAME = <int>` line of the file at `path` to values[NAME]; copies the file into
    the folder `copy_to` when given."""
    text = open(path).read()
    for key, value in values.items():
        text = re.sub(rf"^{key} = \d+", f"{key} = {value}", text, flags=re.M)
    open(path, "w").write(text)
    if copy_to:
        os.makedirs(copy_to, exist_ok=True)
        shutil.copy(path, copy_to)


def interleaved(fn_a, fn_b, samples):
    """Medians of fn_a and fn_b over `samples` alternating do_bench rounds, and a bootstrap 95%
    interval of median(a) / median(b)."""
    import triton.testing

    a, b = [], []
    for _ in range(samples):
        a.append(triton.testing.do_bench(fn_a, warmup=5, rep=40, return_mode="median"))
        b.append(triton.testing.do_bench(fn_b, warmup=5, rep=40, return_mode="median"))
    rng = random.Random(0)
    ratios = sorted(statistics.median(rng.choices(a, k=len(a))) / statistics.median(rng.choices(b, k=len(b)))
                    for _ in range(1000))
    return statistics.median(a), statistics.median(b), ratios[25], ratios[974]
