"""A scripted language-model API on 127.0.0.1, standing in for the remote Anthropic and
OpenAI-compatible endpoints (which the tests cannot reach). It answers POST /v1/messages in the
Anthropic Messages shape and POST .../chat/completions in the chat-completions shape, playing a
script of actions in order, one per request:

  {"answer": TEXT, "usage": [IN, OUT]}  200 with TEXT as the answer
  {"status": 429, "retry_after": "0"}   that HTTP status with an error body
  {"drop": true}                        the connection closed without a response

and keeps every request (path, headers, body). Run as a program (`llm_server.py SCRIPT.json LOG`),
it prints its port, writes each request to LOG as a JSON line and serves until stdin closes."""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ScriptedApi:
    def __init__(self, script: list, log_path: str | None = None):
        self.script = list(script)
        self.requests: list = []
        self.log_path = log_path
        self.lock = threading.Lock()
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                with api.lock:
                    seen = {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                            "body": body}
                    api.requests.append(seen)
                    if api.log_path:
                        with open(api.log_path, "a", encoding="utf-8") as f:
                            f.write(json.dumps(seen) + "\n")
                    action = api.script.pop(0) if api.script else {"status": 500}
                api.play(self, action)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def play(self, handler, action: dict):
        if action.get("drop"):
            handler.close_connection = True
            handler.connection.close()
            return
        status = int(action.get("status", 200))
        if status != 200:
            payload = {"error": {"type": "scripted", "message": f"scripted status {status}"}}
        elif handler.path.endswith("/v1/messages"):
            tin, tout = action.get("usage", [0, 0])
            payload = {"type": "message", "role": "assistant",
                       "content": [{"type": "text", "text": action["answer"]}],
                       "usage": {"input_tokens": tin, "output_tokens": tout}}
        else:
            tin, tout = action.get("usage", [0, 0])
            payload = {"object": "chat.completion",
                       "choices": [{"index": 0, "message": {"role": "assistant", "content": action["answer"]}}],
                       "usage": {"prompt_tokens": tin, "completion_tokens": tout}}
        data = json.dumps(payload).encode("utf-8")
        handler.send_response(status)
        handler.send_header("content-type", "application/json")
        handler.send_header("content-length", str(len(data)))
        if "retry_after" in action:
            handler.send_header("retry-after", action["retry_after"])
        handler.end_headers()
        handler.wfile.write(data)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as f:
        script = json.load(f)
    with ScriptedApi(script, sys.argv[2]) as api:
        print(api.port, flush=True)
        sys.stdin.read()
    return 0


if __name__ == "__main__":
    sys.exit(main())
