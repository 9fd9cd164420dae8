"""The problem file `kernelopt.optimize` writes for the user's own module and inputs.

The module is pickled whole (`torch.save`), so that the worker gets the user's very instance:
its weights, buffers, submodules and training flag, and the graph Inductor sees is the one the
user's own `torch.compile` would see (unlike `torch.export`, which traces another graph).
Classes pickle by reference: the worker imports them from the folders they were imported from
here (added to its `sys.path`). Classes and functions defined in the script being run
(`__main__`) cannot be imported by another process; they are pickled by reference to a module
written beside the problem (`problem_data_classes_*.py`): the script's imports, definitions and
plain constants, without its other statements (which would run the script again).

`get_inputs()` gives the example inputs themselves for seed 0, and for any other seed each input
with its values permuted at random (the same shape, strides, dtype and values, in other places),
so that the gates' seeds differ while every value stays one the model was given.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import pickle
import sys
import types

MODEL_FILE = "problem_data_model.pt"
INPUTS_FILE = "problem_data_inputs.pt"
DATA_PREFIX = "problem_data_"  # every file the problem reads starts so (carried with it)

TEMPLATE = '''"""A problem written by kernelopt.optimize: the user's module, pickled, and its example
inputs. Model() returns the pickled module itself; get_inputs() gives the example inputs for
seed 0 and, for other seeds, each input's values permuted (same shape, strides, dtype, values)."""

import os
import sys

import torch

_HERE = os.path.dirname(os.path.abspath(__file__))
_WRITTEN = {written!r}  # where the data files were written (one beside this file comes first)
_IMPORT_ROOTS = {roots!r}  # where the model's classes were imported from

for _root in [_HERE, _WRITTEN] + _IMPORT_ROOTS:
    if _root not in sys.path:
        sys.path.append(_root)


def _data(name):
    for folder in (_HERE, _WRITTEN):
        if os.path.isfile(os.path.join(folder, name)):
            return os.path.join(folder, name)
    raise FileNotFoundError(f"{{name}}: neither beside {{__file__}} nor in {{_WRITTEN}}")


class Model(torch.nn.Module):
    """Stands for the pickled module: Model() returns it, on the CPU (the worker moves it)."""

    def __new__(cls, *args, **kwargs):
        return torch.load(_data({model!r}), map_location="cpu", weights_only=False)


def get_init_inputs():
    return []


def _permuted(x):
    values = x.flatten()[torch.randperm(x.numel(), device=x.device)]
    return torch.empty_strided(x.shape, x.stride(), dtype=x.dtype, device=x.device).copy_(values.view(x.shape))


def get_inputs():
    examples = torch.load(_data({inputs!r}), map_location="cpu", weights_only=True)
    if torch.initial_seed() == 0:
        return examples
    return [_permuted(x) for x in examples]
'''


def checked_inputs(model, example_inputs) -> list:
    """The example inputs as a list of tensors; TypeError for a model that is not an nn.Module or
    an input that is not a tensor."""
    import torch

    if not isinstance(model, torch.nn.Module):
        raise TypeError(f"kernelopt.optimize: model must be a torch.nn.Module, got {type(model).__name__}")
    inputs = [example_inputs] if isinstance(example_inputs, torch.Tensor) else example_inputs
    if not isinstance(inputs, (list, tuple)):
        raise TypeError("kernelopt.optimize: example_inputs must be a tensor or a tuple or list of tensors, "
                        f"got {type(example_inputs).__name__}")
    if not inputs:
        raise ValueError("kernelopt.optimize: example_inputs is empty: the forward needs inputs to be traced")
    for i, x in enumerate(inputs):
        if not isinstance(x, torch.Tensor):
            raise TypeError(f"kernelopt.optimize: example input {i} is a {type(x).__name__}: inputs must be "
                            "tensors (bind other arguments in the module, e.g. with a wrapper module)")
    return list(inputs)


def write_problem(model, example_inputs, folder: str) -> str:
    """Writes `folder/problem.py` and its data files for `model` and its inputs; returns the path.
    Raises TypeError for a model class the worker could not import."""
    import torch

    inputs = checked_inputs(model, example_inputs)
    folder = os.path.abspath(folder)
    os.makedirs(folder, exist_ok=True)
    pickler = _Pickling(folder)
    torch.save(model, os.path.join(folder, MODEL_FILE), pickle_module=pickler.module())
    torch.save([x.detach().cpu() for x in inputs], os.path.join(folder, INPUTS_FILE))
    path = os.path.join(folder, "problem.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(TEMPLATE.format(written=folder, roots=sorted(pickler.roots), model=MODEL_FILE, inputs=INPUTS_FILE))
    return path


class _Pickling:
    """Pickles by reference, noting each class's import root; redirects what `__main__` defines to
    a module of its definitions written beside the problem."""

    def __init__(self, folder: str):
        self.folder = folder
        self.roots: set = set()
        self.main_module = ""

    def module(self):
        owner = self

        class Pickler(pickle.Pickler):
            def reducer_override(self, obj):
                return owner.reduce(obj)

        module = types.ModuleType("kernelopt_pickle")
        module.__dict__.update({k: getattr(pickle, k) for k in dir(pickle) if not k.startswith("__")})
        module.Pickler = Pickler
        return module

    def reduce(self, obj):
        if not isinstance(obj, (type, types.FunctionType)):
            return NotImplemented
        name = getattr(obj, "__module__", None)
        if name == "__main__":
            import pydoc

            return pydoc.locate, (f"{self._main()}.{obj.__qualname__}",)
        root = _import_root(name)
        if root and root not in _installed():
            self.roots.add(root)
        return NotImplemented

    def _main(self) -> str:
        if not self.main_module:
            self.main_module = write_main_definitions(self.folder)
            self.roots.add(os.path.dirname(os.path.abspath(sys.modules["__main__"].__file__)))
        return self.main_module


@functools.lru_cache(maxsize=None)
def _installed() -> frozenset:
    """The standard library's and the installed packages' folders (the worker has them)."""
    import site
    import sysconfig

    paths = sysconfig.get_paths()
    found = {paths.get(key) for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    found.update(getattr(site, "getsitepackages", list)())
    return frozenset(os.path.abspath(p) for p in found if p)


def _import_root(name) -> str:
    """The sys.path folder module `name` was imported from ("" for a built-in or unknown one)."""
    module = sys.modules.get(name or "")
    path = getattr(module, "__file__", None)
    if not path:
        return ""
    folder = os.path.dirname(os.path.abspath(path))
    levels = name.count(".") + (1 if os.path.basename(path).startswith("__init__.") else 0)
    for _ in range(levels):
        folder = os.path.dirname(folder)
    return folder


def write_main_definitions(folder: str) -> str:
    """Writes the running script's imports, definitions and plain constants as a module beside
    the problem; returns its name. TypeError where the script has no file (an interactive
    session or a notebook)."""
    script = getattr(sys.modules.get("__main__"), "__file__", None)
    if not script or not os.path.isfile(script):
        raise TypeError("kernelopt.optimize: the model uses classes defined in an interactive session or a "
                        "notebook, which the engine's worker cannot import: define them in a module file "
                        "and import it")
    with open(script, encoding="utf-8") as f:
        source = f.read()
    kept = [node for node in ast.parse(source).body if _definition(node)]
    name = DATA_PREFIX + "classes_" + hashlib.sha256(source.encode()).hexdigest()[:12]
    header = f'"""The definitions of {os.path.basename(script)}, for the worker to import."""\n\n'
    with open(os.path.join(folder, name + ".py"), "w", encoding="utf-8") as f:
        f.write(header + "\n\n".join(ast.unparse(node) for node in kept) + "\n")
    return name


def _definition(node) -> bool:
    """An import, a def or class, or an assignment to names of a literal, a name or an attribute."""
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return True
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = all(isinstance(n, (ast.Name, ast.Store, ast.Tuple)) for t in targets for n in ast.walk(t))
        return names and all(isinstance(n, _PLAIN_NODES) for n in ast.walk(node.value))
    return False


# What a kept assignment's value may hold: literals, names and attributes, signs and arithmetic.
_PLAIN_NODES = (ast.Constant, ast.Name, ast.Attribute, ast.Load, ast.Tuple, ast.List, ast.UnaryOp, ast.unaryop,
                ast.BinOp, ast.operator)
