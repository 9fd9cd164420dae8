"""One role's request: the prompt filled from the engine's context, asked of the provider (or
answered from a recording), recorded where asked, and the answer with its code and token counts."""

from __future__ import annotations

import os

from . import prompts, providers, replay, transport
from .errors import LlmError

CODE_ROLES = ("executor", "retry")


def _settings(req: dict) -> dict:
    llm = req.get("llm")
    if not isinstance(llm, dict) or not llm.get("provider") or not llm.get("model"):
        raise LlmError("the request lacks 'llm' with 'provider' and 'model'")
    return llm


def complete(req: dict, sleep=None) -> dict:
    llm = _settings(req)
    role, context, match = req.get("role", ""), req.get("context") or {}, dict(req.get("match") or {})
    match["role"] = role
    provider, model = llm["provider"], llm["model"]
    system, user = prompts.render(role, context)
    payload = providers.body(provider, model, system, [{"role": "user", "content": user}],
                             int(llm.get("response_tokens", 8192)), float(llm.get("temperature", 0.0)))
    normalised = {"provider": provider, **payload}
    key = replay.request_key(normalised)
    replayed = bool(llm.get("replay"))
    if replayed:
        response = replay.find(llm["replay"], key, match)
    else:
        key_env = llm.get("key_env") or providers.KEY_ENV.get(provider, "")
        secret = os.environ.get(key_env) or None
        if secret is None and llm.get("key_required", True):
            raise LlmError(f"{key_env} is not set: the {provider} API needs a key")
        extra = {"sleep": sleep} if sleep else {}
        raw = transport.post(providers.endpoint(provider, llm.get("base_url")), providers.headers(provider, secret),
                             payload, timeout_s=float(llm.get("timeout_s", 300)), retries=int(llm.get("retries", 4)),
                             backoff_s=float(llm.get("backoff_s", 2.0)), key=secret, key_env=key_env, **extra)
        text, usage = providers.parse(provider, raw)
        response = {"text": text, "usage": usage}
    if llm.get("record"):
        replay.save(llm["record"], key, normalised, match, response)
    text = response.get("text", "")
    usage = response.get("usage") or {}
    return {"text": text, "code": prompts.extract_code(text) if role in CODE_ROLES else None,
            "usage": {"input_tokens": int(usage.get("input_tokens", 0)),
                      "output_tokens": int(usage.get("output_tokens", 0))},
            "key": key, "replayed": replayed, "prompt_chars": len(system) + len(user)}
