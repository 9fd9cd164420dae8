"""The configuration of the vendor libraries around the calls the compiler kept: cuDNN's algorithm
choice, the memory format of convolution chains, cuBLAS or cuBLASLt, cuBLASLt's fused epilogues and
the cuBLAS workspace (`knobs.py`). Each knob says whether it applies to a model, applies its
settings only around the model's own calls and puts them back after, and never changes the
precision the user set (`docs/vendor.md`)."""

__all__ = ["KNOBS", "Knob", "PrecisionChanged", "Verdict", "knob_named", "precision_settings"]


def __getattr__(name: str):
    # The knobs load on first use: importing them registers the epilogue's custom op, which a
    # worker that only states the settings (`settings.py`) does not need.
    if name in __all__:
        from . import knobs

        return getattr(knobs, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
