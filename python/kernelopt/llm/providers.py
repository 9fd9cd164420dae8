"""The two request shapes: Anthropic's Messages API and OpenAI-compatible chat completions (vLLM,
SGLang, Ollama and llama.cpp's server speak the latter). Each turns a role's prompt into a URL, the
headers and a body, and a response body into its text and token counts."""

from __future__ import annotations

from .errors import LlmError

DEFAULT_BASE_URLS = {"anthropic": "https://api.anthropic.com", "openai": "https://api.openai.com/v1"}
KEY_ENV = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
ANTHROPIC_VERSION = "2023-06-01"


def base_url(provider: str, url: str | None) -> str:
    if provider not in DEFAULT_BASE_URLS:
        raise LlmError(f"unknown provider '{provider}' (anthropic or openai)")
    return (url or DEFAULT_BASE_URLS[provider]).rstrip("/")


def body(provider: str, model: str, system: str, messages: list, max_tokens: int, temperature: float) -> dict:
    """The request body, with nothing secret in it: also what a recording keys on."""
    if provider == "anthropic":
        return {"model": model, "max_tokens": max_tokens, "temperature": temperature, "system": system,
                "messages": messages}
    return {"model": model, "max_tokens": max_tokens, "temperature": temperature,
            "messages": [{"role": "system", "content": system}, *messages]}


def endpoint(provider: str, url: str | None) -> str:
    root = base_url(provider, url)
    return root + ("/v1/messages" if provider == "anthropic" else "/chat/completions")


def headers(provider: str, key: str | None) -> dict:
    out = {"content-type": "application/json"}
    if provider == "anthropic":
        out["anthropic-version"] = ANTHROPIC_VERSION
        if key:
            out["x-api-key"] = key
    elif key:
        out["authorization"] = "Bearer " + key
    return out


def parse(provider: str, payload: dict) -> tuple[str, dict]:
    """The answer's text and {"input_tokens", "output_tokens"} (0 where the server gives none)."""
    try:
        if provider == "anthropic":
            text = "".join(part.get("text", "") for part in payload["content"] if part.get("type") == "text")
            usage = payload.get("usage") or {}
            return text, {"input_tokens": int(usage.get("input_tokens", 0)),
                          "output_tokens": int(usage.get("output_tokens", 0))}
        text = payload["choices"][0]["message"]["content"] or ""
        usage = payload.get("usage") or {}
        return text, {"input_tokens": int(usage.get("prompt_tokens", 0)),
                      "output_tokens": int(usage.get("completion_tokens", 0))}
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise LlmError(f"the {provider} response has no answer where one belongs ({type(exc).__name__}: {exc})")
