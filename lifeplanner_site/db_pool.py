"""The connection pools of DB_POOL_SIZE (settings.py): the check of a connection before it is handed out, and
a forked child forgets the pools it inherited.

A pool's connections are sockets shared with the parent, and the threads that open and check its
connections did not survive the fork: a child taking connections from the parent's pool would
talk over the parent's sockets, and wait forever for a new connection. The child makes its own
pool on its first query (Celery's prefork children, the case generator's processes).
"""

import os
import select
import sys
import time
import weakref

ROUND_TRIP_AFTER_IDLE_S = 10.0  # a pooled connection unused this long is checked with a round trip
_last_checked: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # connection -> when it was last handed out

# Kept, never collected: collecting a pool takes its locks, which one of the parent's threads may have held at the fork.
_INHERITED: list[dict] = []


def forget_inherited_pools() -> None:
    backend = sys.modules.get("django.db.backends.postgresql.base")  # not loaded: no pool to forget
    if backend is not None:
        _INHERITED.append(backend.DatabaseWrapper._connection_pools)  # not closed: they are the parent's
        backend.DatabaseWrapper._connection_pools = {}


os.register_at_fork(after_in_child=forget_inherited_pools)


def check_pooled_connection(conn) -> None:
    """The pool's check of a connection before it hands it out (DB_CONN_HEALTH_CHECKS): a round trip only when
    the server may have ended it, or when the connection sat unused for ``ROUND_TRIP_AFTER_IDLE_S``.

    psycopg's own check sends an empty query every time, a round trip at every checkout (each tool call,
    twice a case): 6% of a threads worker's CPU. A server that ends a connection (a restart, a terminated
    backend, a proxy cut) leaves its goodbye or the end of the stream on the socket, so a connection in
    steady use with nothing to read is handed out as it is. One with something to read gets psycopg's
    check, which raises for a dead one (the pool drops it and takes another), and so does one left unused
    for a while, which a firewall or a NAT may have dropped without a word. A server that dies after any
    check is met by the caller's retry.
    """
    from psycopg_pool import ConnectionPool

    now = time.monotonic()
    last = _last_checked.get(conn)
    _last_checked[conn] = now
    if conn.closed or conn.broken or last is None or now - last > ROUND_TRIP_AFTER_IDLE_S:
        ConnectionPool.check_connection(conn)  # raises for a dead connection: the pool drops it
        return
    waiting = select.poll()
    waiting.register(conn.fileno(), select.POLLIN)
    if waiting.poll(0):
        ConnectionPool.check_connection(conn)
