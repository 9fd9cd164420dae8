"""Raises inside run."""


def run(inputs, outputs):
    raise ValueError("boom")
