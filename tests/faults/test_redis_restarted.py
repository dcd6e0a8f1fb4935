"""The Redis of the broker (and of the endpoint caps) is killed (kill -9) and restarted mid-run.

With an append-only file, as a production broker runs, the queue comes back and the workers
reconnect by themselves. Without one, the queued cases are gone with Redis: the run stalls
until ``evaluate --resume`` queues them again.
"""

from __future__ import annotations

import time

from benchmark.runs.models import Trajectory


def test_redis_killed_and_restarted_mid_run_loses_nothing_and_duplicates_nothing(drill, django_db_blocker):
    with django_db_blocker.unblock():
        d = drill(cases=8, trials=2, delay_s=0.3).start(concurrency=12)
        d.worker(concurrency=3)
        d.worker(concurrency=3)
        d.enqueue()
        d.wait_done(3)
        left = d.total() - d.done()
        d.redis.restart(down_s=2.0)
        restarted_at = time.monotonic()
        seconds = d.wait_completed()
        recovered_s = time.monotonic() - restarted_at
        d.check(model_may_fail=False)  # the endpoint caps wait out the outage: no case fails for it
        d.figures(
            "Redis kill -9, 2 s, AOF",
            seconds,
            note=f"{left} cases left at the kill; run done {recovered_s:.1f} s after the restart",
        )
    assert left > 0


def test_redis_restarted_without_its_data_loses_queued_messages_and_the_sweep_sends_them_again(
    drill, django_db_blocker
):
    with django_db_blocker.unblock():
        d = drill(cases=8, trials=2, delay_s=0.3).start(concurrency=12)
        d.redis.appendonly = False
        d.redis.restart()  # from now on without an append-only file
        d.worker(concurrency=3)
        d.enqueue()
        d.wait_done(3)
        queued = d.run.trajectories.filter(status=Trajectory.QUEUED).count()
        d.redis.restart(down_s=2.0)  # comes back empty: the queued messages are gone
        restarted_at = time.monotonic()
        seconds = d.wait_completed()  # the housekeeping sweep re-sends the lost tasks: no resume needed
        recovered_s = time.monotonic() - restarted_at
        d.check(model_may_fail=False)
        d.figures(
            "Redis kill -9, no AOF",
            seconds,
            note=f"{queued} queued cases lost; re-sent by the sweep; done {recovered_s:.1f} s after the restart",
        )
    assert queued > 0, "no queued case was lost: the drill proves nothing"
