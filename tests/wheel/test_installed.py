"""The installed wheel, from outside the source tree: the package imports from site-packages (not
the repository's python/), its engine is the bundled one, and the console script runs it.
scripts/test.sh's `wheel` step installs the wheel into a fresh environment and runs these there,
with KERNELOPT_WHEEL_TESTS=1 (without it, and without an installed kernelopt, they are skipped)."""

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import sysconfig

import pytest

try:
    importlib.metadata.version("kernelopt")
except importlib.metadata.PackageNotFoundError:
    if os.environ.get("KERNELOPT_WHEEL_TESTS"):
        raise
    pytest.skip("kernelopt is not installed here (scripts/test.sh wheel installs it)",
                allow_module_level=True)

import kernelopt  # noqa: E402
import kernelopt.engine  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SITE = os.path.realpath(sysconfig.get_paths()["purelib"])


def inside(path: str, folder: str) -> bool:
    return os.path.commonpath([os.path.realpath(path), folder]) == folder


def test_the_package_is_the_installed_one():
    assert inside(kernelopt.__file__, SITE), kernelopt.__file__
    source = os.path.join(os.path.realpath(REPO), "python")
    assert not inside(kernelopt.__file__, source)
    assert not any(os.path.realpath(p) == source for p in sys.path)
    assert kernelopt.__version__ == importlib.metadata.version("kernelopt")


def test_engine_path_is_the_bundled_binary():
    os.environ.pop("KERNELOPT_ENGINE", None)
    path = kernelopt.engine.engine_path()
    assert path == os.path.join(SITE, "kernelopt", "_engine", "kernelopt")
    assert os.access(path, os.X_OK)


def test_engine_path_prefers_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("KERNELOPT_ENGINE", kernelopt.engine.BUNDLED)
    assert kernelopt.engine.engine_path() == kernelopt.engine.BUNDLED
    wrapper = tmp_path / "wrapper"
    wrapper.write_text("#!/bin/sh\n")
    wrapper.chmod(0o755)
    monkeypatch.setenv("KERNELOPT_ENGINE", str(wrapper))
    assert kernelopt.engine.engine_path() == str(wrapper)  # the user's own choice may be a script
    command = tmp_path / "kernelopt"
    command.write_text("#!/usr/bin/python3\nimport sys\nfrom kernelopt._cli import main\nsys.exit(main())\n")
    command.chmod(0o755)
    monkeypatch.setenv("KERNELOPT_ENGINE", str(command))
    with pytest.raises(kernelopt.engine.EngineNotFoundError, match="is the kernelopt command"):
        kernelopt.engine.engine_path()
    monkeypatch.setenv("KERNELOPT_ENGINE", str(tmp_path / "missing"))
    with pytest.raises(kernelopt.engine.EngineNotFoundError, match="not an executable file"):
        kernelopt.engine.engine_path()


def test_the_data_files_are_installed():
    prompts = os.path.join(os.path.dirname(kernelopt.__file__), "llm", "prompts")
    assert sorted(os.listdir(prompts)) == ["executor.v1.md", "planner.v1.md", "retry.v1.md",
                                           "summarizer.v1.md"]


def clauses(requirement: str) -> tuple[str, frozenset]:
    """"torch<2.12,>=2.11" -> ("torch", {"<2.12", ">=2.11"}): the metadata reorders the bounds."""
    name, spec = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*(.*)", requirement.strip()).groups()
    return name, frozenset(c.replace(" ", "") for c in spec.split(",") if c.strip())


def test_the_requirements_match_the_metadata():
    from kernelopt.requirements import SUPPORTED

    declared = {clauses(r.split(";")[0]) for r in importlib.metadata.requires("kernelopt")
                if "extra ==" not in r}
    assert declared == {clauses(name + spec) for name, spec in SUPPORTED.items()}


def console(*args: str, cwd: str, **env: str) -> subprocess.CompletedProcess:
    script = shutil.which("kernelopt", path=os.path.dirname(sys.executable))
    assert script is not None and inside(script, os.path.realpath(sys.prefix))
    clean = {k: v for k, v in os.environ.items()
             if k not in ("KERNELOPT_PYTHON", "KERNELOPT_PYTHON_DIR", "KERNELOPT_ENGINE", "PYTHONPATH")}
    return subprocess.run([script, *args], cwd=cwd, env={**clean, **env}, capture_output=True,
                          text=True, timeout=600, check=False)


def test_console_script_passes_arguments_and_exit_status(tmp_path):
    assert console("--version", cwd=str(tmp_path)).stdout.strip() == kernelopt.__version__
    bad = console("no-such-command", cwd=str(tmp_path))
    assert bad.returncode != 0 and bad.returncode == subprocess.run(
        [kernelopt.engine.BUNDLED, "no-such-command"], capture_output=True, check=False).returncode


def test_doctor_names_the_installed_engine_and_package(tmp_path):
    done = console("doctor", cwd=str(tmp_path))
    assert done.returncode in (0, 4), done.stdout + done.stderr  # 4: no GPU here
    assert f"python:      {sys.version.split()[0]} ({sys.executable})" in done.stdout
    assert "torch:       2.11" in done.stdout and "(supported: >=2.11,<2.12)" in done.stdout
    assert f"engine:      {kernelopt.engine.BUNDLED}" in done.stdout
    assert f"package:     {os.path.join(SITE, 'kernelopt')}" in done.stdout


def test_the_bare_engine_finds_its_package_and_interpreter(tmp_path):
    # Run without the console script: the engine finds SITE itself, and the interpreter beside it.
    clean = {k: v for k, v in os.environ.items()
             if k not in ("KERNELOPT_PYTHON", "KERNELOPT_PYTHON_DIR", "PYTHONPATH")}
    done = subprocess.run([kernelopt.engine.BUNDLED, "doctor"], cwd=str(tmp_path), env=clean,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode in (0, 4), done.stdout + done.stderr
    assert f"package:     {os.path.join(SITE, 'kernelopt')}" in done.stdout
    assert os.path.realpath(sys.prefix) in done.stdout.split("python:", 1)[1].splitlines()[0]


def test_check_runs_a_problem_on_the_cpu(tmp_path):
    done = console("check", os.path.join(REPO, "examples", "row_sum.py"), "--device", "cpu",
                   cwd=str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
