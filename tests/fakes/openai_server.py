"""A local OpenAI-compatible HTTP server that answers from a script (tests never call a real model).

    with FakeOpenAI([reply("Hello"), error(429), reply(tool_calls=[...])]) as fake:
        litellm.completion(model="openai/fake", api_base=fake.url, api_key="sk-test", messages=[...])
        fake.requests  # every request body received
        fake.headers, fake.paths  # and the headers (names in lower case) and the path of each

Each script item answers one request, in order; the last item repeats. A callable item
gets the request body and returns an item.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def reply(
    content: str | None = None,
    *,
    tool_calls: list[dict] | None = None,
    prompt_tokens: int = 11,
    completion_tokens: int = 7,
    delay_s: float = 0.0,
) -> dict:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [
            {
                "id": call.get("id", f"call_{i}"),
                "type": "function",
                "function": {"name": call["name"], "arguments": json.dumps(call.get("arguments", {}))},
            }
            for i, call in enumerate(tool_calls)
        ]
    return {
        "status": 200,
        "delay_s": delay_s,
        "body": {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": "fake",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        },
    }


def error(status: int, message: str = "scripted failure") -> dict:
    return {"status": status, "delay_s": 0.0, "body": {"error": {"message": message, "type": "fake_error"}}}


def drip(interval_s: float = 1.0) -> dict:
    """A whole answer, sent one byte every ``interval_s`` (each read is quick; the whole is not)."""
    return {**reply("ok"), "drip_s": interval_s}


def oversized(n_bytes: int, *, declare_length: bool = True) -> dict:
    """An answer padded to more than ``n_bytes``; without ``declare_length`` its end is the connection's."""
    item = reply("ok")
    return {**item, "body": {**item["body"], "padding": "x" * n_bytes}, "declare_length": declare_length}


class FakeOpenAI:
    def __init__(self, script: list[dict | Callable[[dict], dict]], *, keep_alive: bool = False):
        self.script = list(script)
        self.keep_alive = keep_alive  # HTTP/1.1, the connection kept for the next request (else closed after each)
        self.peers: list[int] = []  # the client's port of each request: its connection
        self.requests: list[dict] = []
        self.headers: list[dict[str, str]] = []
        self.paths: list[str] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next(self, body: dict) -> dict:
        with self._lock:
            self.requests.append(body)
            item = self.script[min(len(self.requests), len(self.script)) - 1]
        return item(body) if callable(item) else item

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            disable_nagle_algorithm = True  # otherwise the body waits 40 ms for the client's ACK of the headers
            protocol_version = "HTTP/1.1" if fake.keep_alive else "HTTP/1.0"

            def do_POST(self):  # noqa: N802
                with fake._lock:
                    fake.headers.append({name.lower(): value for name, value in self.headers.items()})
                    fake.paths.append(self.path)
                    fake.peers.append(self.client_address[1])
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                item = fake._next(body)
                if item.get("delay_s"):
                    time.sleep(item["delay_s"])
                payload = json.dumps(item["body"]).encode()
                self.send_response(item["status"])
                self.send_header("Content-Type", "application/json")
                if item.get("declare_length", True):
                    self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                try:
                    if item.get("drip_s"):
                        for index in range(len(payload)):
                            self.wfile.write(payload[index : index + 1])
                            self.wfile.flush()
                            time.sleep(item["drip_s"])
                    else:
                        self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up, as it should
                    self.close_connection = True

            def log_message(self, *args):  # keep test output clean
                pass

        return Handler
