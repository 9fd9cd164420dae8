"""The configuration of the vendor libraries around the calls the compiler kept: cuDNN's algorithm
choice, the memory format of convolution chains, cuBLAS or cuBLASLt, cuBLASLt's fused epilogues and
the cuBLAS workspace (`knobs.py`). Each knob says whether it applies to a model, applies its
settings only around the model's own calls and puts them back after, and never changes the
precision the user set (`docs/vendor.md`)."""

from .knobs import KNOBS, Knob, PrecisionChanged, Verdict, knob_named, precision_settings

__all__ = ["KNOBS", "Knob", "PrecisionChanged", "Verdict", "knob_named", "precision_settings"]
