"""Defines run with one parameter instead of (inputs, outputs)."""


def run(inputs):
    return inputs
