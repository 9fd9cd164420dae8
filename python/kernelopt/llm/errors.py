"""The helper's one error: a message of one line, with any secret taken out."""

from __future__ import annotations


class LlmError(Exception):
    """A failure the engine reports as one line: an unreachable endpoint, a refused key, a missing
    recording, a bad request."""

    def __init__(self, message: str, tag: str = "kernelopt.llm"):
        super().__init__(message)
        self.message = " ".join(str(message).split())
        self.tag = tag


def scrub(text: str, secret: str | None) -> str:
    """`text` with every occurrence of `secret` replaced: an error body may echo what it was sent."""
    if secret:
        text = text.replace(secret, "***")
    return text
