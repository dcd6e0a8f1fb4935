"""DB_POOL_SIZE: a process's threads share a pool of connections, and a forked child makes its own."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.processes import REPO, child_env

# Run in a process of its own with the pool on (the test process itself has none): prints what it saw as JSON.
PROBE = """
import json, os, threading
from django.db import close_old_connections, connection

def backend():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]

first = backend()
connection.close()  # back to the pool, still open
again = backend()
connection.close()

seen = []
def thread():
    seen.append(backend())
    close_old_connections()
threads = [threading.Thread(target=thread) for _ in range(6)]
for t in threads: t.start()
for t in threads: t.join()

parent_backend = backend()  # held while the child runs: the child must not take it over
read, write = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(read)
    try:
        connection.connection = None  # as Celery's prefork children drop their inherited connection
        result = {"child": backend()}
    except Exception as exc:
        result = {"child_error": repr(exc)}
    os.write(write, json.dumps(result).encode())
    os._exit(0)
os.close(write)
os.waitpid(pid, 0)
child = json.loads(os.read(read, 4096))
print(json.dumps({"first": first, "again": again, "threads": seen, "parent": parent_backend,
                  "parent_after": backend(), **child,
                  "max_size": connection.pool.max_size if connection.pool else None}))
"""


def _probe(**env: str) -> dict:
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", PROBE],
        cwd=REPO,
        env=child_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_pooled_process_reuses_its_connections_and_a_forked_child_opens_its_own():
    seen = _probe(DB_POOL_SIZE="2", DB_POOL_TIMEOUT="20")
    assert seen["max_size"] == 2
    # closing gave the connection back to the pool, open: eight uses by seven threads, on two connections
    assert len({seen["first"], seen["again"], *seen["threads"], seen["parent"]}) <= 2
    assert "child_error" not in seen, seen["child_error"]
    assert seen["child"] not in {seen["first"], *seen["threads"], seen["parent"]}  # a connection of its own
    assert seen["parent_after"] == seen["parent"]  # the parent's connection survived the child


def test_a_negative_pool_size_is_refused_with_the_setting_named():
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=REPO,
        env=child_env(DB_POOL_SIZE="-1"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "DB_POOL_SIZE must be 0 (no pool) or a number of connections; got -1" in done.stderr


@pytest.mark.parametrize("size", ["0", None])
def test_without_a_pool_size_each_thread_keeps_a_connection_of_its_own(size):
    seen = _probe(**({"DB_POOL_SIZE": size} if size else {}))
    assert seen["max_size"] is None
    assert seen["again"] != seen["first"]  # closed means closed
    assert len(set(seen["threads"])) == 6
    assert "child_error" not in seen, seen["child_error"]


# With the pool on: checkouts of a healthy connection in steady use, of one unused for a while, then of one the
# server ended (a restart, a fail-over or pg_terminate_backend all end it so), counting psycopg's round-trip check.
CHECKS = """
import json, time
import psycopg
from psycopg_pool import ConnectionPool
from django.db import connection
from lifeplanner_site import db_pool

round_trips = []
full_check = ConnectionPool.check_connection
ConnectionPool.check_connection = staticmethod(lambda conn: (round_trips.append(1), full_check(conn)))

def backend():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    connection.close()  # back to the pool
    return pid

backend()  # a connection's first checkout is checked with a round trip
round_trips.clear()
healthy = [backend() for _ in range(5)]
quiet = len(round_trips)
db_pool.ROUND_TRIP_AFTER_IDLE_S = 0.3
time.sleep(0.5)
idle = backend()
after_idle = len(round_trips)
db_pool.ROUND_TRIP_AFTER_IDLE_S = 60
round_trips.clear()
db = connection.settings_dict
with psycopg.connect(dbname=db["NAME"], user=db["USER"], password=db["PASSWORD"], host=db["HOST"] or "127.0.0.1",
                     port=db["PORT"] or 5432, autocommit=True) as other:
    other.execute("SELECT pg_terminate_backend(%s)", [healthy[-1]])
time.sleep(0.5)
after = backend()
print(json.dumps({"healthy": healthy, "quiet": quiet, "idle": idle, "after_idle": after_idle, "after": after,
                  "round_trips": len(round_trips)}))
"""


def test_a_pooled_connection_is_checked_with_a_round_trip_only_when_the_server_ended_it():
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", CHECKS],
        cwd=REPO,
        env=child_env(DB_POOL_SIZE="1"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(set(seen["healthy"])) == 1 and seen["quiet"] == 0  # five checkouts, not one empty query
    assert seen["idle"] == seen["healthy"][0] and seen["after_idle"] == 1  # unused a while: checked, still good
    assert seen["after"] != seen["healthy"][-1]  # the ended connection was dropped, a new one served the query
    assert seen["round_trips"] >= 1  # the server's goodbye on the socket sent it to psycopg's check
