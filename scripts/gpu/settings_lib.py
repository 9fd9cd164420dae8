"""What the scripts/gpu/*_variants.py scripts share: loading a candidate file as a module, and
writing the chosen launch constants back into it (module-level `NAME = <int>` lines)."""

import importlib.util
import os
import re
import shutil


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
