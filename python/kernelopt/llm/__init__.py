"""The language-model helper of the `llm` proposer: a small process the engine starts (`python -m
kernelopt.llm`) that fills the roles' prompt templates, asks an Anthropic Messages or an
OpenAI-compatible chat-completions endpoint, and answers with the text, the code it holds and the
tokens it cost. Standard library only (no torch), so that it starts in a fraction of a second.

Record and replay: every request and response can be kept in a folder and answered from it later,
without network or key. The key itself is read from the environment variable the engine names and
goes nowhere but the request's header."""

PROTOCOL = 1
