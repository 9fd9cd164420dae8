"""The supported ranges that `kernelopt doctor` checks are the wheel's requirements, and the range
check reads versions as pip would for the bounds used."""

import os
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from kernelopt import requirements  # noqa: E402


def pyproject() -> dict:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)


def test_the_wheel_requires_what_the_doctor_checks():
    declared = {r.replace(" ", "") for r in pyproject()["project"]["dependencies"]}
    assert declared == {name + spec for name, spec in requirements.SUPPORTED.items()}


def test_the_package_version_is_the_engine_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        assert f"project(kernelopt VERSION {__import__('kernelopt').__version__} " in f.read()


def test_release_reads_local_and_pre_release_versions():
    assert requirements.release("2.11.0+cu130") == (2, 11, 0)
    assert requirements.release("2.12.0.dev20261201") == (2, 12, 0)
    assert requirements.release("3.6.0rc1") == (3, 6, 0)


def test_satisfies_the_bounds_of_a_range():
    spec = ">=2.11,<2.12"
    assert requirements.satisfies("2.11.0", spec)
    assert requirements.satisfies("2.11.3+cu130", spec)
    assert not requirements.satisfies("2.10.1", spec)
    assert not requirements.satisfies("2.12.0", spec)
    assert not requirements.satisfies("2.12.0.dev20261201", spec)  # as pip: <2.12 excludes 2.12's pre-releases
    assert requirements.satisfies("2.3.5", "<2.4")
    assert not requirements.satisfies("2.4.0", "<2.4")


def test_check_reports_each_requirement():
    found = requirements.check()
    assert set(found) == set(requirements.SUPPORTED)
    for name, entry in found.items():
        assert entry["supported"] == requirements.SUPPORTED[name]
        assert entry["ok"] == (entry["version"] is not None
                               and requirements.satisfies(entry["version"], entry["supported"]))
