"""A forked child forgets the connection pools it inherited (DB_POOL_SIZE, settings.py).

A pool's connections are sockets shared with the parent, and the threads that open and check its
connections did not survive the fork: a child taking connections from the parent's pool would
talk over the parent's sockets, and wait forever for a new connection. The child makes its own
pool on its first query (Celery's prefork children, the case generator's processes).
"""

import os
import sys

# Kept, never collected: collecting a pool takes its locks, which one of the parent's threads may have held at the fork.
_INHERITED: list[dict] = []


def forget_inherited_pools() -> None:
    backend = sys.modules.get("django.db.backends.postgresql.base")  # not loaded: no pool to forget
    if backend is not None:
        _INHERITED.append(backend.DatabaseWrapper._connection_pools)  # not closed: they are the parent's
        backend.DatabaseWrapper._connection_pools = {}


os.register_at_fork(after_in_child=forget_inherited_pools)
