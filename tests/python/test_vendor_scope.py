"""Vendor knobs around a model attempt's calls, on the CPU: which knobs may run around the
compiler's own graphs (settings alone, in this process), that the calls run under the settings on
a thread of their own and the settings are put back after, an exception included, and that the
worker refuses a request naming any other knob."""

import os
import sys
import threading

import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from kernelopt.vendor.scope import KnobThread, settings_knobs  # noqa: E402
from kernelopt.worker.errors import WorkerError  # noqa: E402
from kernelopt.worker.session import _vendor_thread  # noqa: E402


def test_settings_knobs_are_the_ones_that_change_no_model_and_no_process():
    assert [k.name for k in settings_knobs(["cudnn_benchmark", "cublaslt"])] == ["cudnn_benchmark", "cublaslt"]
    assert settings_knobs([]) == []


@pytest.mark.parametrize("name, why", [("channels_last", "transforms the model"),
                                       ("addmm_epilogue", "transforms the model"),
                                       ("workspace", "CUDA initialization"),
                                       ("tf32", "no vendor knob")])
def test_other_knobs_are_refused_with_the_reason(name, why):
    with pytest.raises(ValueError, match=why):
        settings_knobs([name])


def test_a_knob_named_twice_is_refused():
    with pytest.raises(ValueError, match="named twice"):
        settings_knobs(["cublaslt", "cublaslt"])


def test_calls_run_under_the_settings_on_a_fresh_thread_and_the_settings_come_back():
    assert torch.backends.cudnn.benchmark is False
    seen = {}

    def call():
        seen["benchmark"] = torch.backends.cudnn.benchmark
        seen["thread"] = threading.current_thread()
        return 42

    with KnobThread(settings_knobs(["cudnn_benchmark"])) as under:
        assert under(call) == 42
    assert seen["benchmark"] is True
    assert seen["thread"] is not threading.current_thread()
    assert torch.backends.cudnn.benchmark is False


def test_without_knobs_the_call_runs_here_and_unchanged():
    seen = {}

    def call():
        seen["benchmark"] = torch.backends.cudnn.benchmark
        seen["thread"] = threading.current_thread()

    KnobThread([])(call)
    assert seen == {"benchmark": False, "thread": threading.current_thread()}


def test_an_exception_of_the_call_reaches_the_caller_and_the_settings_come_back():
    def call():
        raise KeyError("from the candidate")

    with pytest.raises(KeyError, match="from the candidate"), KnobThread(settings_knobs(["cudnn_benchmark"])) as under:
        under(call)
    assert torch.backends.cudnn.benchmark is False


def test_the_worker_refuses_a_request_naming_a_knob_it_cannot_run_around_the_graphs():
    assert [k.name for k in _vendor_thread({"vendor": ["cudnn_benchmark"]}).knobs] == ["cudnn_benchmark"]
    assert _vendor_thread({}).knobs == []
    with pytest.raises(WorkerError, match="transforms the model"):
        _vendor_thread({"vendor": ["channels_last"]})


def test_the_call_keeps_the_callers_autograd_mode():
    under = KnobThread(settings_knobs(["cudnn_benchmark"]))
    with torch.no_grad():
        assert under(torch.is_grad_enabled) is False
    assert under(torch.is_grad_enabled) is True
    with torch.inference_mode():
        assert under(torch.is_inference_mode_enabled) is True


def test_a_kept_thread_is_one_thread_for_every_call_and_the_settings_come_back():
    under = KnobThread(settings_knobs(["cudnn_benchmark"]))
    seen = [under(lambda: (threading.current_thread(), torch.backends.cudnn.benchmark)) for _ in range(3)]
    assert len({t for t, _ in seen}) == 1 and seen[0][0] is not threading.current_thread()
    assert all(on for _, on in seen) and torch.backends.cudnn.benchmark is False
    assert KnobThread([])(threading.current_thread) is threading.current_thread()


def test_a_thread_used_as_a_context_ends_on_exit():
    with KnobThread(settings_knobs(["cudnn_benchmark"])) as under:
        thread = under(threading.current_thread)
    assert not thread.is_alive()
