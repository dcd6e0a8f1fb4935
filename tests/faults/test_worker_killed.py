"""A worker is killed (SIGKILL, its whole process group) mid-run. The broker would hand its cases
out again only after the visibility timeout (hours); the housekeeping sweep (celery beat) re-queues
them once their leases run out, and every (case, trial) finishes once."""

from __future__ import annotations

import time

from benchmark.runs.models import Trajectory
from tests.processes import kill_process_group, wait_for


def test_a_worker_killed_mid_run_loses_nothing_and_duplicates_nothing(drill, django_db_blocker):
    with django_db_blocker.unblock():
        d = drill(cases=8, trials=2, delay_s=0.3).start(concurrency=12)
        victim = d.worker(concurrency=3)
        d.enqueue()
        d.wait_done(5)  # the victim is up and busy; 11 cases are left
        # Alone, every case running now is the victim's: a survivor started before the kill could be
        # the one holding them all, and the drill would prove nothing. Killed only once it holds cases in
        # flight (two or more: one may finish before the signal lands), not at a moment between cases.
        running = d.run.trajectories.filter(status=Trajectory.RUNNING)
        wait_for(lambda: running.count() >= 2, 60, "the victim to hold cases in flight", interval=0.02)
        kill_process_group(victim)
        killed_at = time.monotonic()
        orphans = set(d.run.trajectories.filter(status=Trajectory.RUNNING).values_list("id", flat=True))
        d.worker(concurrency=3)
        seconds = d.wait_completed()
        recovered_s = time.monotonic() - killed_at
        d.check()
        orphaned = d.run.trajectories.filter(id__in=orphans, attempts__gt=1).count()
        figures = d.figures(
            "worker killed (SIGKILL)",
            seconds,
            note=f"{orphaned} cases died with it; run done {recovered_s:.1f} s after the kill "
            f"(lease {d.lease_s} s, sweep every {d.sweep_s} s)",
        )
    assert orphaned, "no case was in flight on the killed worker; the drill proves nothing"
    assert figures.claimed_again >= orphaned
