"""HTTP POST of one JSON request (urllib, ssl), with a timeout on each try and retries with
exponential backoff on 429, 5xx and a dropped or refused connection. A refused key (401, 403) and
any other 4xx are not retried. Every failure is one line, with the key taken out."""

from __future__ import annotations

import http.client
import json
import socket
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request

from .errors import LlmError, scrub

RETRIED = {408, 409, 429, 500, 502, 503, 504, 529}
MAX_WAIT_S = 60.0


def _detail(exc: urllib.error.HTTPError) -> str:
    try:
        raw = exc.read().decode("utf-8", "replace")
    except (OSError, http.client.HTTPException):
        return exc.reason or ""
    try:
        err = json.loads(raw).get("error", raw)
        return err.get("message", str(err)) if isinstance(err, dict) else str(err)
    except (ValueError, AttributeError):
        return raw[:300]


def _wait_s(attempt: int, backoff_s: float, retry_after: str | None) -> float:
    if retry_after:
        try:
            return min(MAX_WAIT_S, max(0.0, float(retry_after)))
        except ValueError:
            pass
    return min(MAX_WAIT_S, backoff_s * (2 ** attempt))


def post(url: str, headers: dict, payload: dict, *, timeout_s: float, retries: int, backoff_s: float,
         key: str | None, key_env: str, sleep=time.sleep) -> dict:
    """The JSON object the endpoint answers, after at most `retries` retries."""
    data = json.dumps(payload).encode("utf-8")
    host = urllib.parse.urlsplit(url).netloc or url
    context = ssl.create_default_context() if url.startswith("https:") else None
    last = ""
    for attempt in range(retries + 1):
        request = urllib.request.Request(url, data=data, headers=headers, method="POST")
        retry_after = None
        try:
            with urllib.request.urlopen(request, timeout=timeout_s, context=context) as response:
                raw = response.read()
            try:
                return json.loads(raw)
            except ValueError:
                last = f"{host} answered with something that is not JSON ({raw[:80]!r})"
        except urllib.error.HTTPError as exc:
            detail = scrub(_detail(exc), key)
            if exc.code in (401, 403):
                raise LlmError(f"{host} refused the key in {key_env} (HTTP {exc.code}: {detail})")
            if exc.code not in RETRIED:
                raise LlmError(f"{host} rejected the request (HTTP {exc.code}: {detail})")
            last = f"HTTP {exc.code} from {host}: {detail}"
            retry_after = exc.headers.get("retry-after") if exc.headers else None
        except (urllib.error.URLError, http.client.HTTPException, ConnectionError, socket.timeout,
                TimeoutError) as exc:
            reason = getattr(exc, "reason", None) or exc
            last = f"cannot reach {url}: {type(reason).__name__}: {reason}".rstrip(": ")
        if attempt < retries:
            sleep(_wait_s(attempt, backoff_s, retry_after))
    raise LlmError(scrub(f"{last} (after {retries + 1} tries)", key))
