"""Run one (case, trial): claim it, let the agent answer through the tools, record, score, finish.

Everything the agent did is written in one transaction when it ends (steps, model calls,
answer, scores): a worker killed half-way leaves the row RUNNING with a stale lease and no
half-written trajectory, and the next claim starts it afresh.

The agents of all the cases a process runs at once share one event loop (``run_in_process_loop``):
litellm's HTTP client and its kept-alive connections, the Redis connections of the caps and
the loop's threads are made once per process instead of once per case.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import threading
from collections.abc import Coroutine
from typing import Any

from asgiref.sync import sync_to_async
from django.db import InterfaceError, OperationalError, connection

from benchmark.agents.catalog import AgentOutcome, AgentTask, get_agent
from benchmark.agents.config import RunConfig
from benchmark.agents.toolbox import BudgetExhausted, Toolbox
from benchmark.cases.document import CaseDocument
from benchmark.endpoints.egress import ApiBaseNotAllowed
from benchmark.endpoints.secrets import SecretDecryptionError
from benchmark.runs.models import Trajectory
from kernel.vocabulary import Ending

from .lifecycle import trajectory_claim, trajectory_finish, trajectory_heartbeat
from .preflight import MissingApiKey
from .services import run_fail

log = logging.getLogger(__name__)
HEARTBEAT_SECONDS = 20


def trajectory_execute(*, trajectory_id: int, claimant: str = "") -> str:
    """Execute the trajectory if ``claimant`` (the task) can claim it; returns what happened."""
    if not trajectory_claim(trajectory_id=trajectory_id, claimant=claimant):
        return "skipped"
    trajectory = Trajectory.objects.select_related("run__endpoint", "run__replay_of", "entry").get(id=trajectory_id)
    document = CaseDocument.model_validate(trajectory.entry.snapshot)
    config = RunConfig.from_stored(trajectory.run.config)
    calls: list[dict] = []
    try:  # here, not in the loop: it reads the database and resolves the endpoint's host (both block)
        llm, refused = _llm_for(trajectory, config, calls), ""
    except (ApiBaseNotAllowed, SecretDecryptionError) as exc:  # the endpoint may not be reached
        llm, refused = None, str(exc)
    except MissingApiKey as exc:  # every case would fail alike: the run fails now, its queued cases cancelled
        run_fail(run_id=trajectory.run_id, error=str(exc))
        llm, refused = None, str(exc)
    _release_connection()
    outcome, toolbox = run_in_process_loop(_run(trajectory, document, config, llm, refused))
    trajectory_finish(
        trajectory=trajectory,
        steps=toolbox.steps,
        final_answer=outcome.final_answer,
        ended=outcome.ended,
        error=outcome.error,
        input_tokens=outcome.input_tokens,
        output_tokens=outcome.output_tokens,
        model_calls=calls,
        city=toolbox.pinned_city,
        document=document,
    )
    return outcome.ended


def _release_connection() -> None:
    """Give this thread's database connection back while its case waits on the model and the tools.

    A threads worker runs a case per task thread; kept open, their connections add up to one per
    case in flight (4 workers x 32 cases: 128, past PostgreSQL's default max_connections of 100),
    though a case uses the database only when it is claimed and when it is written. Not inside a
    transaction (a test's), which a closed connection would break.
    """
    if not connection.in_atomic_block:
        connection.close()


GC_YOUNG_THRESHOLD = 50_000  # allocations between young collections in a worker (Python's default: 700)


def worker_warm_up() -> None:
    """Load, once per worker process and before its first case, what every case needs.

    Importing litellm alone takes about 3 s of CPU; done inside the first cases it stalls every
    case the process has started. A mock completion runs litellm's call path once, which imports
    what it loads lazily. Touches neither the database nor the network and leaves no thread or
    loop behind, so it may run before a prefork pool forks.
    """
    from benchmark.agents.catalog import get_agent
    from benchmark.endpoints.llm import model_calls_warm_up
    from benchmark.runs.scoring import services  # noqa: F401

    get_agent("litellm")  # imports and registers every agent
    asyncio.run(model_calls_warm_up())
    _gc_settle()


def _gc_settle() -> None:
    """Keep the collector off what the process loaded at start, and let it run less often.

    Django, litellm and the rest leave about 500,000 objects that live as long as the process; a full
    collection walked all of them (0.3-0.6 s with the whole process stopped, four or five times a run of
    the release per worker). Frozen, they are left out of every collection (and a prefork pool's
    children no longer write to their pages to collect them). The young generation is collected every
    ``GC_YOUNG_THRESHOLD`` allocations instead of Python's 700: a case allocates far more than that
    per model call, and each young collection also walks the large containers still young.
    """
    import gc

    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, older, oldest)


async def _run(
    trajectory: Trajectory,
    document: CaseDocument,
    config: RunConfig,
    llm,
    refused: str,
) -> tuple[AgentOutcome, Toolbox]:
    run = trajectory.run
    agent = get_agent(run.agent)
    heartbeat = asyncio.create_task(_heartbeat(trajectory.id))
    toolbox = Toolbox(city=document.city_name, budget=config.tool_budget)
    try:
        async with toolbox:
            try:
                if refused:
                    return AgentOutcome(ended=Ending.MODEL_ERROR, error=refused), toolbox
                task = AgentTask(
                    question=document.question,
                    case=document,
                    trial=trajectory.trial,
                    config=config,
                    tools=toolbox,
                    llm=llm,
                )
                outcome = await asyncio.wait_for(agent(task), timeout=config.timeout_s)
            except TimeoutError:
                outcome = AgentOutcome(
                    final_answer=toolbox.submitted, ended=Ending.TIMEOUT, error="the agent ran out of time"
                )
            except BudgetExhausted as exc:
                outcome = AgentOutcome(final_answer=toolbox.submitted, ended=Ending.BUDGET_EXHAUSTED, error=str(exc))
            except Exception as exc:  # an agent bug is recorded on the trajectory, not a crash of the run
                log.exception("agent %s failed on trajectory %s", run.agent, trajectory.id)
                outcome = AgentOutcome(
                    final_answer=toolbox.submitted, ended=Ending.INVALID_ANSWER, error=f"{type(exc).__name__}: {exc}"
                )
            finally:
                if llm is not None:
                    await llm.aclose()
    finally:
        heartbeat.cancel()
    return outcome, toolbox


async def _heartbeat(trajectory_id: int) -> None:
    beat = sync_to_async(trajectory_heartbeat)
    while True:
        await asyncio.sleep(HEARTBEAT_SECONDS)
        try:
            await beat(trajectory_id=trajectory_id)
        except (OperationalError, InterfaceError):  # the database is away: keep beating; the lease has slack
            log.warning("lease heartbeat of trajectory %s failed; trying again", trajectory_id)


def _llm_for(trajectory: Trajectory, config: RunConfig, calls: list[dict]):
    """The model client for endpoint runs (recording every call; replaying when the run is a replay)."""
    run = trajectory.run
    if run.endpoint_id is None:
        return None
    from .llm_factory import llm_client

    return llm_client(trajectory=trajectory, config=config, calls=calls, redis=_PROCESS_LOOP.redis(), shared_http=True)


class _ProcessLoop:
    """One event loop per process, in a daemon thread, shared by every case the process runs.

    Made on first use and again in a forked child (a thread does not survive a fork).
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._pid: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._redis = None
        self.thread: threading.Thread | None = None

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._pid != os.getpid() or self._loop is None or self._loop.is_closed():
                self._loop, self._redis, self._pid = asyncio.new_event_loop(), None, os.getpid()
                self.thread = threading.Thread(target=self._loop.run_forever, name="lifeplanner-agents", daemon=True)
                self.thread.start()
                atexit.register(self.close)
            return self._loop

    def close(self, timeout_s: float = 5.0) -> None:
        """Cancel what is left on the loop (litellm's logging worker, say), close the Redis client, stop."""
        loop = self._loop
        if loop is None or self._pid != os.getpid() or not loop.is_running():
            return
        try:
            asyncio.run_coroutine_threadsafe(_wind_down(self._redis), loop).result(timeout_s)
        except Exception:  # at exit, with a task that will not end: leave it, the process ends anyway
            log.warning("the agents' event loop did not wind down in %.0f s", timeout_s)
        loop.call_soon_threadsafe(loop.stop)
        if self.thread is not None:  # started with the loop
            self.thread.join(timeout_s)
        if not loop.is_running():
            loop.close()

    def redis(self):
        """The process's Redis client for the endpoint caps, used only on this loop (it pools connections)."""
        self.loop()
        with self._lock:
            if self._redis is None:
                from django.conf import settings
                from redis.asyncio import Redis

                self._redis = Redis.from_url(settings.REDIS_URL)
            return self._redis


async def _wind_down(redis) -> None:
    tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if redis is not None:
        await redis.aclose()


_PROCESS_LOOP = _ProcessLoop()


def run_in_process_loop(coroutine: Coroutine) -> Any:
    """Run ``coroutine`` on the process's shared event loop and wait for its result in this thread.

    If this thread is interrupted while it waits (a Celery soft time limit), the coroutine is cancelled.
    """
    loop = _PROCESS_LOOP.loop()
    if threading.current_thread() is _PROCESS_LOOP.thread:
        coroutine.close()
        raise RuntimeError("run_in_process_loop waits for the loop it is called from: await the coroutine instead")
    future = asyncio.run_coroutine_threadsafe(coroutine, loop)
    try:
        return future.result()
    except BaseException:
        future.cancel()
        raise
