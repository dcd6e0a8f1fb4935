"""Per-endpoint request caps that hold across worker processes, kept in Redis.

``ConcurrencySemaphore`` caps requests in flight with expiring leases: a sorted set of lease
tokens scored by their expiry time. A worker killed while holding a slot stops renewing its
lease, so the slot comes back when the lease expires instead of leaking forever.
``RateLimiter`` caps requests per sliding window: a sorted set of request times.

Both decide inside one Lua script on Redis' own clock, so workers on hosts whose clocks
disagree still share one count. While Redis is unreachable (a restart), both wait for it, up
to ``patience_s`` (then the Redis error is raised): a broker blip is not the model's failure.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import uuid
import weakref
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

DEFAULT_LEASE_S = 120.0
DEFAULT_WINDOW_S = 60.0
DEFAULT_PATIENCE_S = 120.0  # how long a request waits for an unreachable Redis
# How long a slot stays with its client after an answer, for the client's next request (the agent's next turn
# comes after its tool calls, tens of milliseconds later): longer would idle a slot others may be waiting for.
PARK_S = 0.5
KEY_PREFIX = "lifeplanner:endpoint"

# KEYS[1] the lease set; ARGV: limit, lease seconds, token. Returns 1 when the slot is taken.
_ACQUIRE_SLOT = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
local lease_ms = math.floor(tonumber(ARGV[2]) * 1000)
redis.call('ZADD', KEYS[1], now_ms + lease_ms, ARGV[3])
redis.call('PEXPIRE', KEYS[1], lease_ms * 2)
return 1
"""

# KEYS[1] the lease set; ARGV: lease seconds, token. Returns 1 when the lease was still held.
_RENEW_SLOT = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local lease_ms = math.floor(tonumber(ARGV[1]) * 1000)
local renewed = redis.call('ZADD', KEYS[1], 'XX', 'CH', now_ms + lease_ms, ARGV[2])
redis.call('PEXPIRE', KEYS[1], lease_ms * 2)
return renewed
"""

# KEYS[1] the request log; ARGV: limit, window seconds, member. Returns 0 when admitted,
# otherwise the milliseconds until the oldest request leaves the window.
_TAKE_RATE = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local window_ms = math.floor(tonumber(ARGV[2]) * 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms - window_ms)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now_ms, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window_ms + 1000)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window_ms - now_ms)
"""


class _Outage:
    """Waits out an unreachable Redis, for up to ``patience_s`` from the first failure."""

    def __init__(self, key: str, patience_s: float):
        self.key, self.patience_s = key, patience_s
        self.since: float | None = None

    async def wait(self, exc: Exception) -> None:
        """Sleep before the next try, or raise ``exc`` once Redis has been away longer than the patience."""
        now = time.monotonic()
        if self.since is None:
            self.since = now
            log.warning(
                "Redis is unreachable for the caps on %s (%s); waiting up to %.0f s", self.key, exc, self.patience_s
            )
        if now - self.since > self.patience_s:
            raise exc
        await asyncio.sleep(min(2.0, 0.1 + (now - self.since) / 4) * (0.5 + random.random()))


class _LocalWaiters:
    """The acquirers of one endpoint's slots waiting on this event loop, longest-waiting first.

    A slot given back in this process wakes the first of them at once, instead of leaving the slot
    idle until its next poll; waiters in other processes still find it at their next poll.
    """

    def __init__(self) -> None:
        self._queue: deque[asyncio.Future] = deque()

    async def wait(self, timeout_s: float) -> None:
        """Until a slot is given back here, or ``timeout_s`` passes (the next poll)."""
        woken = asyncio.get_running_loop().create_future()
        self._queue.append(woken)
        try:
            await asyncio.wait_for(woken, timeout_s)
        except TimeoutError:
            pass
        finally:
            with suppress(ValueError):  # not there once wake_one took it
                self._queue.remove(woken)

    def wake_one(self) -> None:
        while self._queue:
            woken = self._queue.popleft()
            if not woken.done():
                woken.set_result(None)
                return


_WAITERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _LocalWaiters]] = weakref.WeakKeyDictionary()


def _local_waiters(key: str) -> _LocalWaiters:
    by_key = _WAITERS.setdefault(asyncio.get_running_loop(), {})
    return by_key.setdefault(key, _LocalWaiters())


class ConcurrencySemaphore:
    """At most ``limit`` holders at once for ``endpoint_id``, across processes.

    ``acquire`` waits for a free slot and returns a lease token, renewed in the background
    (every third of ``lease_s``) until ``release(token)``. A waiter polls Redis about every
    ``poll_s``, and a slot released on the same event loop wakes the longest waiter at once.
    """

    def __init__(
        self,
        redis: Redis,
        endpoint_id: int,
        limit: int,
        *,
        lease_s: float = DEFAULT_LEASE_S,
        poll_s: float = 0.05,
        prefix: str = KEY_PREFIX,
        patience_s: float = DEFAULT_PATIENCE_S,
    ):
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self.redis, self.limit, self.lease_s, self.poll_s = redis, limit, lease_s, poll_s
        self.patience_s = patience_s
        self.key = f"{prefix}:{endpoint_id}:inflight"
        self._renewals: dict[str, asyncio.Task] = {}

    async def try_acquire(self) -> str | None:
        """Take a slot if one is free now; returns the lease token, or None."""
        token = uuid.uuid4().hex
        taken = await self.redis.eval(_ACQUIRE_SLOT, 1, self.key, self.limit, self.lease_s, token)
        if not int(taken):
            return None
        self._renewals[token] = asyncio.create_task(self._renew(token))
        return token

    async def acquire(self) -> str:
        """Wait for a slot (and for Redis, while it is unreachable); returns the token to pass to ``release``."""
        outage = _Outage(self.key, self.patience_s)
        while True:
            try:
                token = await self.try_acquire()
            except (RedisConnectionError, RedisTimeoutError) as exc:
                await outage.wait(exc)
                continue
            if token is not None:
                return token
            await _local_waiters(self.key).wait(self.poll_s * (0.5 + random.random()))  # jitter: not in step

    async def release(self, token: str) -> None:
        """Give the slot back and stop renewing its lease."""
        renewal = self._renewals.pop(token, None)
        if renewal is not None:
            renewal.cancel()
        await self.redis.zrem(self.key, token)
        _local_waiters(self.key).wake_one()

    async def holders(self) -> int:
        """Leases currently held (expired ones are not counted)."""
        return await self.redis.eval(
            "local t = redis.call('TIME') "
            "return redis.call('ZCOUNT', KEYS[1], '(' .. (t[1] * 1000 + math.floor(t[2] / 1000)), '+inf')",
            1,
            self.key,
        )

    async def _renew(self, token: str) -> None:
        while True:
            await asyncio.sleep(self.lease_s / 3)
            try:
                await self.redis.eval(_RENEW_SLOT, 1, self.key, self.lease_s, token)
            except RedisError:  # a blip: the next renewal (well before expiry) tries again
                log.warning("could not renew the lease on %s", self.key, exc_info=True)


class RateLimiter:
    """At most ``limit`` requests per ``window_s`` seconds (sliding window) for ``endpoint_id``."""

    def __init__(
        self,
        redis: Redis,
        endpoint_id: int,
        limit: int,
        *,
        window_s: float = DEFAULT_WINDOW_S,
        prefix: str = KEY_PREFIX,
        patience_s: float = DEFAULT_PATIENCE_S,
    ):
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self.redis, self.limit, self.window_s, self.patience_s = redis, limit, window_s, patience_s
        self.key = f"{prefix}:{endpoint_id}:requests"

    async def acquire(self) -> None:
        """Wait until one more request fits in the window (and for Redis, while it is unreachable); count it."""
        outage = _Outage(self.key, self.patience_s)
        while True:
            try:
                wait_ms = int(
                    await self.redis.eval(_TAKE_RATE, 1, self.key, self.limit, self.window_s, uuid.uuid4().hex)
                )
            except (RedisConnectionError, RedisTimeoutError) as exc:
                await outage.wait(exc)
                continue
            if not wait_ms:
                return
            await asyncio.sleep(wait_ms / 1000 * (1 + 0.1 * random.random()))

    async def release(self) -> None:
        """Nothing to give back: a request leaves the window by itself."""


class EndpointLimits:
    """Both caps of one endpoint for one client: ``async with limits.slot():`` around each request.

    After an answer, the slot is parked for up to ``PARK_S``: the client's next request (an agent's next
    turn, after its tool calls) takes it back without asking Redis, so a turn does not wait on two Redis
    round trips for a slot it just had. A parked slot still counts in Redis, so the cap holds; it goes
    back when the park ends, when the client is done (``give_back``), or at once after a failed request.
    """

    def __init__(
        self,
        redis: Redis,
        endpoint_id: int,
        *,
        concurrency: int,
        requests_per_minute: int | None,
        lease_s: float = DEFAULT_LEASE_S,
        window_s: float = DEFAULT_WINDOW_S,
        prefix: str = KEY_PREFIX,
        patience_s: float = DEFAULT_PATIENCE_S,
        park_s: float = PARK_S,
    ):
        self.redis, self.park_s = redis, park_s
        self._parked: tuple[str, asyncio.TimerHandle] | None = None  # (token, the timer that gives it back)
        self._giving_back: set[asyncio.Task] = set()
        self.semaphore = ConcurrencySemaphore(
            redis, endpoint_id, concurrency, lease_s=lease_s, prefix=prefix, patience_s=patience_s
        )
        self.rate = (
            RateLimiter(
                redis, endpoint_id, requests_per_minute, window_s=window_s, prefix=prefix, patience_s=patience_s
            )
            if requests_per_minute
            else None
        )

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold a slot around a request: the parked one, or one taken from Redis (which may raise RedisError
        while Redis is unreachable past the patience). Every request still counts against the rate cap.

        Giving a slot back never fails the request nor waits for Redis: it is sent in the background, and
        if Redis does not take it, or the loop ends first, its lease expires instead.
        """
        token = self._unpark() or await self.semaphore.acquire()
        try:
            if self.rate is not None:
                await self.rate.acquire()
            yield
        except BaseException:  # failed or cancelled: the endpoint may be struggling, leave the slot to others
            self._give_back_soon(token)
            raise
        self._park(token)

    def give_back(self) -> None:
        """The client is done: give the parked slot back now (in the background; ``settled`` waits for it)."""
        token = self._unpark()
        if token is not None:
            self._give_back_soon(token)

    async def settled(self, timeout_s: float | None = None) -> None:
        """Wait until every slot given back so far has reached Redis (or failed to), or ``timeout_s`` has
        passed (the slots still on their way keep going, in the background)."""
        deadline = None if timeout_s is None else asyncio.get_running_loop().time() + timeout_s
        while self._giving_back:
            left = None if deadline is None else deadline - asyncio.get_running_loop().time()
            if left is not None and left <= 0:
                return
            await asyncio.wait(set(self._giving_back), timeout=left)

    async def aclose(self) -> None:
        """Give the parked slot back, wait for the slots on their way back, close the Redis connection."""
        self.give_back()
        await self.settled()
        await self.redis.aclose()

    def _park(self, token: str) -> None:
        self.give_back()  # a slot parked by an overlapping request of the same client
        self._parked = (token, asyncio.get_running_loop().call_later(self.park_s, self.give_back))

    def _unpark(self) -> str | None:
        if self._parked is None:
            return None
        (token, timer), self._parked = self._parked, None
        timer.cancel()
        return token

    def _give_back_soon(self, token: str) -> None:
        task = asyncio.get_running_loop().create_task(self._give_back(token))
        self._giving_back.add(task)  # a reference, so the task is not collected before it runs
        task.add_done_callback(self._giving_back.discard)

    async def _give_back(self, token: str) -> None:
        try:
            await self.semaphore.release(token)
        except RedisError:
            log.warning("could not give back a slot on %s; its lease ends by itself", self.semaphore.key, exc_info=True)
