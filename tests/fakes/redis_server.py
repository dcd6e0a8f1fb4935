"""A redis-server of a test's own, on a free port in a temporary directory, that can be killed and restarted.

The shared Redis on 6379 serves other work; fault drills kill this one instead. With
``appendonly`` (the default here, as a production broker should run) the data survives a
``kill -9``; without it a restart comes back empty.

    with RedisServer(tmp_path) as redis_server:
        url = redis_server.url(db=0)
        redis_server.restart()  # kill -9, start again on the same port and directory
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


class RedisServer:
    def __init__(self, directory: Path, *, port: int = 0, appendonly: bool = True, appendfsync: str = "always"):
        self.directory = Path(directory)
        self.port = port or _free_port()
        self.appendonly, self.appendfsync = appendonly, appendfsync
        self.process: subprocess.Popen | None = None
        self.restarts = 0

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self, timeout: float = 10.0) -> RedisServer:
        self.directory.mkdir(parents=True, exist_ok=True)
        args = [
            REDIS_SERVER,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(self.directory),
            "--save",
            "",
            "--appendonly",
            "yes" if self.appendonly else "no",
            "--appendfsync",
            self.appendfsync,
            "--daemonize",
            "no",
            "--logfile",
            str(self.directory / "redis.log"),
        ]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait_ready(timeout)
        return self

    def kill(self) -> None:
        """SIGKILL, as a crash or an OOM kill: nothing is flushed on the way out."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def restart(self, *, down_s: float = 0.0) -> None:
        """Kill the server, stay down ``down_s`` seconds, start it again on the same port and directory."""
        self.kill()
        time.sleep(down_s)
        self.start()
        self.restarts += 1

    def stop(self) -> None:
        self.kill()

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = self.directory / "redis.log"
                raise RuntimeError(
                    f"redis-server exited with {self.process.returncode}: "
                    f"{log.read_text()[-2000:] if log.exists() else ''}"
                )
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(64).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise TimeoutError(f"redis-server did not answer on port {self.port} within {timeout:g} s")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
