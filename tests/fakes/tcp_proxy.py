"""A TCP forwarder that can play a server going away: drop every connection and refuse new ones.

Put it between worker processes and PostgreSQL (point their DATABASE_URL at ``proxy.port``)
and call ``proxy.refuse()`` / ``proxy.accept()``, or ``with proxy.outage(): ...``. While
refusing, the listening socket is closed, so a connect fails at once with "connection
refused", as when the server is down; connections already open are cut (as by a restart).

    with TcpProxy("127.0.0.1", 5432) as proxy:
        url = f"postgis://user:pw@127.0.0.1:{proxy.port}/db"
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from collections.abc import Iterator

CHUNK = 65536


class TcpProxy:
    def __init__(self, target_host: str, target_port: int, *, host: str = "127.0.0.1", port: int = 0):
        self.target = (target_host, target_port)
        self.host, self.port = host, port
        self.accepted = 0  # connections forwarded
        self.dropped = 0  # open connections cut by refuse()
        self._lock = threading.Lock()
        self._pairs: set[tuple[socket.socket, socket.socket]] = set()
        self._listener: socket.socket | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    # --- life cycle --------------------------------------------------------------------------------

    def start(self) -> TcpProxy:
        self._listen()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self.refuse()

    def __enter__(self) -> TcpProxy:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def refusing(self) -> bool:
        return self._listener is None

    def refuse(self) -> None:
        """Close the listening socket (new connects are refused) and cut every open connection."""
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        with self._lock:
            pairs, self._pairs = self._pairs, set()
            self.dropped += len(pairs)
        for pair in pairs:
            _close(*pair)

    def accept(self) -> None:
        """Listen again on the same port."""
        if self._listener is None and not self._stopping.is_set():
            self._listen()

    @contextlib.contextmanager
    def outage(self) -> Iterator[None]:
        """Refuse inside the block, accept again after it."""
        self.refuse()
        try:
            yield
        finally:
            self.accept()

    # --- forwarding --------------------------------------------------------------------------------

    def _listen(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self.host, self.port))
        listener.listen(128)
        self.port = listener.getsockname()[1]
        self._listener = listener
        self._thread = threading.Thread(target=self._serve, args=(listener,), daemon=True, name="tcp-proxy")
        self._thread.start()

    def _serve(self, listener: socket.socket) -> None:
        while self._listener is listener:
            try:
                readable, _, _ = select.select([listener], [], [], 0.1)
                if not readable:
                    continue
                client, _ = listener.accept()
            except (OSError, ValueError):  # closed by refuse()
                return
            self._connect(client)

    def _connect(self, client: socket.socket) -> None:
        try:
            server = socket.create_connection(self.target, timeout=5)
            server.settimeout(None)
        except OSError:
            client.close()
            return
        pair = (client, server)
        with self._lock:
            self._pairs.add(pair)
            self.accepted += 1
        for source, sink in ((client, server), (server, client)):
            threading.Thread(target=self._pump, args=(source, sink, pair), daemon=True, name="tcp-proxy-pump").start()

    def _pump(self, source: socket.socket, sink: socket.socket, pair: tuple[socket.socket, socket.socket]) -> None:
        try:
            while data := source.recv(CHUNK):
                sink.sendall(data)
        except OSError:
            pass
        with self._lock:
            self._pairs.discard(pair)
        _close(*pair)


def _close(*sockets: socket.socket) -> None:
    for sock in sockets:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            sock.close()
