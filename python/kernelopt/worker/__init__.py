"""The worker: compiles, runs, compares and times what the engine asks, and returns numbers.

It never decides whether a candidate is good; the C++ engine does. Protocol: docs/protocol.md.
"""

PROTOCOL_VERSION = 2
