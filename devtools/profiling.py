"""cProfile over every thread of a worker process, for ``bench_evaluation --profile``.

Set ``LIFEPLANNER_PROFILE_DIR`` in a worker's environment: once it is ready (warmed up), each
thread it runs gets a profiler of its own (cProfile follows one thread; its clock is the thread's
CPU time, so waiting costs nothing), and at shutdown their statistics are merged into
``<dir>/worker-<pid>.prof``. Off (and free) when the variable is unset.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import threading
import time
from pathlib import Path

PROFILE_DIR_ENV = "LIFEPLANNER_PROFILE_DIR"

_profiles: list[cProfile.Profile] = []
_lock = threading.Lock()


def profile_dir() -> Path | None:
    value = os.environ.get(PROFILE_DIR_ENV, "")
    return Path(value) if value else None


def profiling_start() -> None:
    """Profile this thread and every thread started or first scheduled from now on."""
    if profile_dir() is None:
        return
    threading.setprofile(_start_in_thread)
    _start_in_thread()


def _start_in_thread(*_args) -> None:
    profile = cProfile.Profile(time.thread_time)  # CPU time: a thread waiting on I/O or the GIL costs nothing
    with _lock:
        _profiles.append(profile)
    profile.enable()  # replaces this hook in this thread


def profiling_stop() -> Path | None:
    """Merge every thread's statistics into one .prof file; returns its path (None when off)."""
    folder = profile_dir()
    if folder is None or not _profiles:
        return None
    threading.setprofile(None)
    sys.setprofile(None)
    with _lock:
        profiles = list(_profiles)
    merged = None
    for profile in profiles:
        profile.snapshot_stats()  # reads what it has so far; works from any thread
        if not profile.stats:
            continue
        stats = pstats.Stats(_Snapshot(profile.stats))  # type: ignore[arg-type]  # pstats reads .stats and create_stats
        merged = stats if merged is None else merged.add(stats)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"worker-{os.getpid()}.prof"
    if merged is not None:
        merged.dump_stats(path)
    return path


class _Snapshot:
    """What pstats.Stats reads: a ``stats`` dict and a ``create_stats`` to call."""

    def __init__(self, stats: dict):
        self.stats = stats

    def create_stats(self) -> None:
        pass


def profile_summary(paths: list[Path], *, top: int = 40) -> str:
    """The top functions by cumulative and by own time over ``paths`` (pstats' text)."""
    import io

    out = io.StringIO()
    stats = pstats.Stats(*[str(p) for p in paths], stream=out)
    stats.strip_dirs()
    for order in ("cumulative", "tottime"):
        out.write(f"\n=== top {top} by {order} ===\n")
        stats.sort_stats(order).print_stats(top)
    return out.getvalue()
