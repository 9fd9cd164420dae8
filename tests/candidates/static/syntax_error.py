"""Does not import: a syntax error."""


def run(inputs, outputs)
    pass
