"""PostgreSQL refuses connections for a few seconds mid-run (and drops the open ones), as in a restart
or a fail-over: the workers' tasks retry, and every (case, trial) finishes once."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from tests.fakes.tcp_proxy import TcpProxy
from tests.processes import child_database_url

OUTAGE_S = 4.0


@pytest.mark.parametrize("pool_size", ["0", "4"], ids=["connection per thread", "pooled"])
def test_the_database_refusing_connections_mid_run_loses_nothing_and_duplicates_nothing(
    drill, django_db_blocker, pool_size
):
    """Pooled (DB_POOL_SIZE, as the bench and the compose file's threads workers run), a connection the outage cut
    is dropped when it is next taken, not handed to a task."""
    db = connection.settings_dict
    with django_db_blocker.unblock(), TcpProxy(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)) as proxy:
        d = drill(cases=8, trials=2, delay_s=0.3).start(concurrency=12)
        through_proxy = child_database_url(host="127.0.0.1", port=proxy.port)
        d.worker(concurrency=3, database_url=through_proxy, DB_POOL_SIZE=pool_size)
        d.worker(concurrency=3, database_url=through_proxy, DB_POOL_SIZE=pool_size)
        d.enqueue()
        d.wait_done(3)
        before = d.done()
        with proxy.outage():
            time.sleep(OUTAGE_S)
        back_at = time.monotonic()
        seconds = d.wait_completed()
        recovered_s = time.monotonic() - back_at
        d.check()
        figures = d.figures(
            f"PostgreSQL refuses {OUTAGE_S:g} s" + (f", pool of {pool_size}" if pool_size != "0" else ""),
            seconds,
            note=f"{proxy.dropped} connections cut, {d.total() - before} cases left; run done "
            f"{recovered_s:.1f} s after it came back",
        )
    assert proxy.dropped > 0, "no worker connection was open when the database went away"
    assert figures.requests >= figures.recorded_calls + figures.retries


def test_a_tool_call_whose_database_connection_was_cut_runs_again_on_a_fresh_one(grid_city, django_db_blocker):
    """As after a PostgreSQL restart: the tool thread's persistent connection is dead; the agent must not see it."""
    from concurrent.futures import ThreadPoolExecutor

    from environment.tools.gateway import call_tool

    def place_detail():
        return call_tool("agent", "place_detail", {"place_id": "N1"}, city=grid_city.name)

    with django_db_blocker.unblock(), ThreadPoolExecutor(max_workers=1) as tool_thread:
        try:
            before = tool_thread.submit(place_detail).result()
            backend = tool_thread.submit(lambda: connection.connection.info.backend_pid).result()
            with connection.cursor() as cursor:  # what a restart does to every open connection
                cursor.execute("SELECT pg_terminate_backend(%s)", [backend])
            after = tool_thread.submit(place_detail).result()
        finally:
            tool_thread.submit(lambda: connection.close()).result()
    assert before.ok
    assert after.ok and after.result == before.result, after.error
