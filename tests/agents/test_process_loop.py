"""The agents' event loop: one per process, shared by the cases of every thread, rebuilt after a fork;
and the worker warm-up that loads litellm before the first case."""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from benchmark.runs.execute import run_in_process_loop
from tests import processes


async def _loop_id() -> int:
    await asyncio.sleep(0.01)
    return id(asyncio.get_running_loop())


def test_cases_started_from_many_threads_share_one_event_loop_in_a_thread_of_its_own():
    with ThreadPoolExecutor(max_workers=8) as pool:
        loops = set(pool.map(lambda _: run_in_process_loop(_loop_id()), range(32)))

    async def thread_name() -> str:
        return threading.current_thread().name

    assert len(loops) == 1
    assert run_in_process_loop(thread_name()) == "lifeplanner-agents"


def test_an_exception_of_the_case_reaches_the_caller():
    async def broken():
        raise LookupError("no such place")

    with pytest.raises(LookupError, match="no such place"):
        run_in_process_loop(broken())


def test_waiting_on_the_loop_from_inside_it_is_refused_instead_of_hanging():
    async def nested():
        with pytest.raises(RuntimeError, match="await the coroutine instead"):
            run_in_process_loop(_loop_id())
        return "refused"

    assert run_in_process_loop(nested()) == "refused"


class _SoftTimeLimit(Exception):
    pass


def test_a_caller_interrupted_while_it_waits_cancels_its_case():
    cancelled = threading.Event()

    async def slow_case():
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    def interrupt(signum, frame):  # how Celery's soft time limit reaches a waiting task
        raise _SoftTimeLimit()

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        with pytest.raises(_SoftTimeLimit):
            run_in_process_loop(slow_case())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert cancelled.wait(5)


def _child(results) -> None:
    results.put(run_in_process_loop(_loop_id()))


def test_a_forked_child_runs_its_cases_on_a_loop_of_its_own():
    parent_loop = run_in_process_loop(_loop_id())  # the parent's loop thread does not survive the fork
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    child = context.Process(target=_child, args=(results,))
    child.start()
    try:
        child_loop = results.get(timeout=20)
    finally:
        child.join(10)
    assert child.exitcode == 0 and isinstance(child_loop, int)
    assert run_in_process_loop(_loop_id()) == parent_loop


WARM_UP = """
import gc, sys, threading
import django
django.setup()
from benchmark.runs.execute import GC_YOUNG_THRESHOLD, worker_warm_up
worker_warm_up()
names = ("litellm", "litellm.llms.openai.openai", "benchmark.runs.scoring.services")
print(sorted(m for m in names if m in sys.modules))
print(threading.active_count())
print(gc.get_freeze_count() > 10 * len(gc.get_objects()), gc.get_threshold()[0] == GC_YOUNG_THRESHOLD)
"""


def test_the_worker_warm_up_loads_litellm_and_leaves_no_thread_to_break_a_fork():
    done = subprocess.run(
        [sys.executable, "-c", WARM_UP],
        cwd=processes.REPO,
        env=processes.child_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    loaded, threads, collector = done.stdout.split("\n")[:3]
    assert loaded == "['benchmark.runs.scoring.services', 'litellm', 'litellm.llms.openai.openai']"
    assert threads == "1"  # nothing a forked pool process would inherit half-alive
    # What it loaded is left out of the collector's walks (a full one took 0.3-0.6 s, the process stopped).
    assert collector == "True True"
