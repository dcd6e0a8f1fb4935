"""A scripted OpenAI-compatible endpoint for benchmarks, fault drills and demos (no real model).

It plays a perfect agent: for a question of the release it answers, turn by turn, with the
case's reference tool path as tool calls (one call per turn), ending with submit_answer. An
optional delay per answer and a failure rate make it behave like a slow or flaky provider.
Nothing here is used to score anything: the tools still run, the answers are still checked.

With a delay, an answer leaves ``delay_s`` after its request arrived, whatever reading and
answering it cost here, so that a benchmark's ideal rate (requests in flight / delay) is one a
zero-overhead client could reach. ``peak_in_flight`` is the most requests it held at once.

    python manage.py fake_endpoint --release helsinki-v2 --port 8400 --delay 1.0 --fail-rate 0.2
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

QUESTION_MARK = "Now answer the following question:"


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # socketserver's backlog of 5 overflows when a benchmark's cases connect at once: the kernel drops the
    # connection attempt (ListenOverflows in `nstat`) and the client tries again a second later, which the
    # benchmark then counts as the harness's latency. A provider's server has a deep backlog.
    request_queue_size = 1024


class ScriptedEndpoint:
    def __init__(
        self,
        paths: dict[str, list[dict]],
        *,
        delay_s: float = 0.0,
        fail_rate: float = 0.0,
        seed: int = 0,
        host: str = "127.0.0.1",
        port: int = 0,
    ):
        self.paths = paths  # question text -> [{tool, arguments}]
        self.delay_s, self.fail_rate = delay_s, fail_rate
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.served = 0
        self.in_flight = self.peak_in_flight = 0
        self.server = _Server((host, port), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @classmethod
    def for_release(cls, release, **kwargs) -> ScriptedEndpoint:
        paths = {
            entry.snapshot["question"]: [
                {"tool": s["tool"], "arguments": s["arguments"]} for s in entry.snapshot["reference_path"]
            ]
            for entry in release.entries.all()
        }
        return cls(paths, **kwargs)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        # The stubs type server_address as what bind() accepts; once bound, the host is a str.
        return f"http://{host}:{port}/v1"  # type: ignore[str-bytes-safe]

    def start(self) -> ScriptedEndpoint:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> ScriptedEndpoint:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @contextmanager
    def count(self) -> Iterator[None]:
        """Count a request as held from its arrival until its answer is ready to send: never longer than the
        client holds it, so ``peak_in_flight`` never overstates what a client's cap let through."""
        with self.lock:
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        try:
            yield
        finally:
            with self.lock:
                self.in_flight -= 1

    def answer(self, body: dict) -> tuple[int, dict]:
        with self.lock:
            self.served += 1
            fail = self.fail_rate and self.rng.random() < self.fail_rate
        if fail:
            return 500, {"error": {"message": "scripted failure", "type": "server_error"}}
        messages = body.get("messages", [])
        question = next(
            (
                m["content"].split(QUESTION_MARK, 1)[1].strip()
                for m in messages
                if isinstance(m.get("content"), str) and QUESTION_MARK in m["content"]
            ),
            "",
        )
        path = self.paths.get(question)
        made = sum(len(m.get("tool_calls") or []) for m in messages if m.get("role") == "assistant")
        prompt_tokens = sum(len(str(m.get("content") or "")) for m in messages) // 4 + 1
        if path is None or made >= len(path):
            message: dict = {"role": "assistant", "content": "I cannot help with that question."}
            return 200, _completion(message, prompt_tokens, 8, "stop")
        step = path[made]
        call = {
            "id": f"call_{made}",
            "type": "function",
            "function": {"name": step["tool"], "arguments": json.dumps(step["arguments"])},
        }
        message = {"role": "assistant", "content": f"Step {made + 1}: calling {step['tool']}.", "tool_calls": [call]}
        return 200, _completion(message, prompt_tokens, 20, "tool_calls")

    def _handler(self):
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body are two writes: with Nagle, the body waits for the
            # client's delayed ACK of the headers (40 ms on Linux) and every answer comes 40 ms late

            def do_POST(self):  # noqa: N802
                due = time.monotonic() + endpoint.delay_s  # the headers are read: the request has arrived
                with endpoint.count():
                    body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                    status, payload = endpoint.answer(body)
                    data = json.dumps(payload).encode()
                    time.sleep(max(0.0, due - time.monotonic()))
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        return Handler


def _completion(message: dict, prompt_tokens: int, completion_tokens: int, finish: str) -> dict:
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "scripted",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }
