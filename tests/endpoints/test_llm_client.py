"""The model client: retries, recording without the API key, replay, and the Redis caps across workers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from benchmark.endpoints.limits import ConcurrencySemaphore, EndpointLimits, RateLimiter
from benchmark.endpoints.llm import EndpointSpec, LLMClient, ModelError, RetryPolicy, full_requests
from tests.fakes.openai_server import FakeOpenAI, drip, error, oversized, reply
from tests.fakes.tcp_proxy import TcpProxy

API_KEY = "sk-secret-123"
FAST = RetryPolicy(max_attempts=5, base_s=0.001, cap_s=0.01)
MESSAGES = [{"role": "user", "content": "Where is Museo Kivi?"}]


@pytest.fixture(autouse=True)
def private_endpoints_on(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # the fake endpoint listens on 127.0.0.1 (the egress checks allow it so)


def client(fake: FakeOpenAI, calls: list[dict], **kwargs) -> LLMClient:
    spec = EndpointSpec(
        endpoint_id=kwargs.pop("endpoint_id", None),
        model="openai/fake",
        api_base=fake.url,
        api_key=API_KEY,
        params=kwargs.pop("params", {}),
        concurrency=kwargs.pop("concurrency", 4),
    )
    return LLMClient(spec, record=lambda **call: calls.append(call), retry=kwargs.pop("retry", FAST), **kwargs)


def test_rate_limit_then_server_error_then_success_is_one_call_of_three_attempts():
    calls: list[dict] = []
    with FakeOpenAI([error(429), error(500), reply("Museo Kivi is at Testikatu 5.")]) as fake:
        response = asyncio.run(client(fake, calls).complete(MESSAGES, None))
    assert response["choices"][0]["message"]["content"] == "Museo Kivi is at Testikatu 5."
    assert len(fake.requests) == 3
    assert len(calls) == 1
    assert calls[0]["sequence"] == 0 and calls[0]["attempts"] == 3 and calls[0]["error"] == ""
    assert calls[0]["response"]["choices"][0]["message"]["content"] == "Museo Kivi is at Testikatu 5."
    assert calls[0]["request"]["messages"] == MESSAGES and calls[0]["request"]["temperature"] == 0.0


def test_an_endpoint_that_always_fails_ends_in_model_error_after_the_last_attempt():
    calls: list[dict] = []
    with FakeOpenAI([error(500)]) as fake, pytest.raises(ModelError, match="gave up after 3 attempts"):
        asyncio.run(client(fake, calls, retry=RetryPolicy(max_attempts=3, base_s=0.001)).complete(MESSAGES))
    assert len(fake.requests) == 3
    assert calls[0]["attempts"] == 3 and calls[0]["response"] is None
    assert "InternalServerError" in calls[0]["error"]


def test_a_client_error_is_not_retried():
    calls: list[dict] = []
    with FakeOpenAI([error(401, "bad key")]) as fake, pytest.raises(ModelError, match="AuthenticationError"):
        asyncio.run(client(fake, calls).complete(MESSAGES))
    assert len(fake.requests) == 1 and calls[0]["attempts"] == 1


def test_a_response_without_choices_is_retried_as_malformed():
    calls: list[dict] = []
    empty = {"status": 200, "delay_s": 0.0, "body": {"id": "x", "object": "chat.completion", "choices": []}}
    with FakeOpenAI([empty, reply("ok")]) as fake:
        response = asyncio.run(client(fake, calls).complete(MESSAGES))
    assert response["choices"][0]["message"]["content"] == "ok"
    assert len(fake.requests) == 2 and calls[0]["attempts"] == 2


def test_a_request_that_times_out_is_retried():
    calls: list[dict] = []
    # The first answer comes after the timeout, the second well within it (however loaded the machine).
    with FakeOpenAI([reply("slow", delay_s=4.0), reply("fast")]) as fake:
        response = asyncio.run(client(fake, calls, timeout_s=1.5).complete(MESSAGES))
    assert response["choices"][0]["message"]["content"] == "fast"
    assert calls[0]["attempts"] == 2


@pytest.mark.parametrize("declare_length", [True, False])
def test_an_answer_longer_than_the_cap_is_refused_not_retried_and_not_read_whole(declare_length):
    calls: list[dict] = []
    refused = pytest.raises(ModelError, match=r"refused: the endpoint's answer is longer than 65,536 bytes")
    with FakeOpenAI([oversized(200_000, declare_length=declare_length)]) as fake, refused:
        asyncio.run(client(fake, calls, max_response_bytes=65_536).complete(MESSAGES))
    assert len(fake.requests) == 1 and calls[0]["attempts"] == 1  # a refusal: not retried
    assert ("(declared 200," in calls[0]["error"]) is declare_length  # refused before reading, when declared


def test_the_connection_test_has_one_deadline_for_a_server_that_drips_its_answer(settings):
    """Each byte comes within the per-read timeout, so only a deadline for the whole call ends it."""
    from benchmark.endpoints.probe import endpoint_probe

    with FakeOpenAI([drip(interval_s=0.5)]) as fake:
        started = time.monotonic()
        result = endpoint_probe(model="openai/fake", api_base=fake.url, api_key=API_KEY, timeout_s=2.0)
        took = time.monotonic() - started
    assert not result.ok and result.message == "no complete answer within 2 s, the deadline of a connection test"
    assert took < 10  # the answer takes over 100 s at this pace; the deadline ends it (about 2 s)


def test_tool_call_arguments_that_are_not_json_are_handed_back_not_retried():
    calls: list[dict] = []
    broken = reply(tool_calls=[{"name": "place_detail", "arguments": {}}])
    broken["body"]["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = "{not json"
    with FakeOpenAI([broken]) as fake:
        response = asyncio.run(client(fake, calls).complete(MESSAGES))
    assert response["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == "{not json"
    assert len(fake.requests) == 1


def test_the_api_key_is_never_recorded_nor_logged(caplog):
    calls: list[dict] = []
    caplog.set_level(logging.DEBUG)
    script = [error(429, f"quota exceeded for key {API_KEY}"), reply(f"echo {API_KEY}")]
    with FakeOpenAI(script) as fake:
        asyncio.run(client(fake, calls, params={"logit_bias": {"api_key": API_KEY}}).complete(MESSAGES))
    with FakeOpenAI([error(500, f"server broke on key {API_KEY}")]) as fake, pytest.raises(ModelError) as failure:
        asyncio.run(
            client(fake, calls, retry=RetryPolicy(max_attempts=1)).complete(
                MESSAGES + [{"role": "user", "content": f"my key is {API_KEY}"}]
            )
        )
    with FakeOpenAI([error(400, f"invalid key {API_KEY}")]) as fake, pytest.raises(ModelError) as bad_request:
        asyncio.run(client(fake, calls).complete(MESSAGES))
    recorded = json.dumps(calls)
    assert len(calls) == 3 and calls[0]["attempts"] == 2
    assert API_KEY not in recorded
    assert "api_key" not in calls[0]["request"]
    assert calls[0]["request"]["logit_bias"]["api_key"] == "[redacted]"
    assert API_KEY not in str(failure.value) and API_KEY not in str(bad_request.value)
    assert all(API_KEY not in record.getMessage() for record in caplog.records)
    assert all(API_KEY not in (record.exc_text or "") for record in caplog.records)


def test_replay_answers_from_the_recording_without_any_request():
    recording = {0: reply("first")["body"], 1: reply("second")["body"]}
    calls: list[dict] = []
    with FakeOpenAI([reply("live")]) as fake:
        llm = client(fake, calls, replay=recording)

        async def both():
            return [await llm.complete(MESSAGES), await llm.complete(MESSAGES)]

        responses = asyncio.run(both())
        with pytest.raises(ModelError, match="no response for model call 2"):
            asyncio.run(llm.complete(MESSAGES))
    assert [r["choices"][0]["message"]["content"] for r in responses] == ["first", "second"]
    assert fake.requests == []
    assert [c["sequence"] for c in calls] == [0, 1, 2] and calls[2]["response"] is None


TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "place_detail",
            "description": "Details of a place.",
            "parameters": {"type": "object", "properties": {}},
        },
    }
]


def test_a_continued_conversation_records_only_what_each_call_adds_and_rebuilds_whole():
    calls: list[dict] = []
    conversation = [
        {"role": "system", "content": "You are a geographic assistant. " * 40},
        {"role": "user", "content": "Where is Museo Kivi?"},
    ]

    async def three_turns(llm):
        for turn in range(3):
            await llm.complete(conversation, TOOLS)
            conversation.extend(
                [
                    {"role": "assistant", "content": f"turn {turn}"},
                    {"role": "tool", "tool_call_id": f"call_{turn}", "content": f"result {turn}"},
                ]
            )

    with FakeOpenAI([reply("ok")]) as fake:
        asyncio.run(three_turns(client(fake, calls)))
    recorded = [c["request"] for c in calls]
    assert "messages_before" not in recorded[0] and recorded[0]["tools"] == TOOLS
    assert [r["messages_before"] for r in recorded[1:]] == [2, 4]
    assert recorded[2]["messages"] == conversation[4:6] and recorded[2]["tools_as_before"] is True
    assert "tools" not in recorded[2] and recorded[2]["temperature"] == 0.0
    assert len(json.dumps(recorded[2])) < len(json.dumps(recorded[0])) / 5  # the system prompt is not repeated
    rebuilt = full_requests(recorded)
    assert [r["messages"] for r in rebuilt] == [body["messages"] for body in fake.requests]
    assert [r["tools"] for r in rebuilt] == [body["tools"] for body in fake.requests]


def test_a_request_that_does_not_continue_the_previous_one_is_recorded_whole():
    calls: list[dict] = []
    other = [{"role": "user", "content": "And the Ateneum?"}]

    async def two_questions(llm):
        await llm.complete(MESSAGES, TOOLS)
        await llm.complete(other, [])

    with FakeOpenAI([reply("ok")]) as fake:
        asyncio.run(two_questions(client(fake, calls)))
    assert calls[1]["request"]["messages"] == other and "messages_before" not in calls[1]["request"]
    assert "tools" not in calls[1]["request"] and "tools_as_before" not in calls[1]["request"]
    assert full_requests([c["request"] for c in calls])[1]["messages"] == other


def test_rebuilding_a_recording_that_lacks_the_first_call_is_refused():
    calls: list[dict] = []

    async def two_turns(llm):
        await llm.complete(MESSAGES)
        await llm.complete([*MESSAGES, {"role": "assistant", "content": "At Testikatu 5."}])

    with FakeOpenAI([reply("ok")]) as fake:
        asyncio.run(two_turns(client(fake, calls)))
    with pytest.raises(ValueError, match="continues a previous request that is not in the recording"):
        full_requests([calls[1]["request"]])


# --- limits across workers (Redis) ----------------------------------------------------------------


@pytest.fixture
def redis_prefix():
    prefix = f"test:{uuid.uuid4().hex}"
    yield prefix

    async def clean():
        redis = Redis.from_url("redis://127.0.0.1:6379/0")
        keys = await redis.keys(f"{prefix}:*")
        if keys:
            await redis.delete(*keys)
        await redis.aclose()

    asyncio.run(clean())


def _redis() -> Redis:
    from django.conf import settings

    return Redis.from_url(settings.REDIS_URL)


def test_with_concurrency_one_a_second_acquire_waits_for_the_release(redis_prefix):
    async def scenario():
        worker_a, worker_b = _redis(), _redis()  # two connections, as two worker processes have
        sem_a = ConcurrencySemaphore(worker_a, 7, 1, prefix=redis_prefix, poll_s=0.01)
        sem_b = ConcurrencySemaphore(worker_b, 7, 1, prefix=redis_prefix, poll_s=0.01)
        held = await sem_a.acquire()
        waiting = asyncio.create_task(sem_b.acquire())
        await asyncio.sleep(0.3)
        blocked = not waiting.done()
        await sem_a.release(held)
        token = await asyncio.wait_for(waiting, 2)
        holders = await sem_b.holders()
        await sem_b.release(token)
        await worker_a.aclose()
        await worker_b.aclose()
        return blocked, holders

    blocked, holders = asyncio.run(scenario())
    assert blocked and holders == 1


def test_a_slot_given_back_in_the_same_process_wakes_the_waiter_without_waiting_for_its_poll(redis_prefix):
    """Waiters poll every minute here: only the local wake-up can hand the slot over within the two seconds,
    and it goes to the longest waiter first."""

    async def scenario():
        redis = _redis()
        semaphores = [ConcurrencySemaphore(redis, 8, 1, prefix=redis_prefix, poll_s=60) for _ in range(3)]
        held = await semaphores[0].acquire()
        first = asyncio.create_task(semaphores[1].acquire())
        await asyncio.sleep(0.1)
        second = asyncio.create_task(semaphores[2].acquire())
        await asyncio.sleep(0.1)
        await semaphores[0].release(held)
        token = await asyncio.wait_for(first, 2)
        still_waiting = not second.done()
        await semaphores[1].release(token)
        await semaphores[2].release(await asyncio.wait_for(second, 2))
        await redis.aclose()
        return still_waiting

    assert asyncio.run(scenario()) is True


def test_an_expired_lease_frees_the_slot_of_a_dead_worker(redis_prefix):
    async def scenario():
        dead, alive = _redis(), _redis()
        sem_dead = ConcurrencySemaphore(dead, 8, 1, lease_s=0.4, prefix=redis_prefix)
        sem_alive = ConcurrencySemaphore(alive, 8, 1, lease_s=0.4, prefix=redis_prefix, poll_s=0.02)
        started = time.monotonic()  # before the lease is taken: it cannot expire sooner than 0.4 s from here
        token = await sem_dead.acquire()
        sem_dead._renewals.pop(token).cancel()  # the worker is killed: nobody renews or releases
        refused_at_once = await sem_alive.try_acquire() is None
        mine = await asyncio.wait_for(sem_alive.acquire(), 5)
        waited = time.monotonic() - started
        await sem_alive.release(mine)
        await dead.aclose()
        await alive.aclose()
        return refused_at_once, waited

    refused_at_once, waited = asyncio.run(scenario())
    assert refused_at_once
    assert 0.35 < waited < 5


def test_a_held_lease_is_renewed_past_its_expiry(redis_prefix):
    async def scenario():
        holder, other = _redis(), _redis()
        sem_holder = ConcurrencySemaphore(holder, 9, 1, lease_s=0.3, prefix=redis_prefix)
        sem_other = ConcurrencySemaphore(other, 9, 1, lease_s=0.3, prefix=redis_prefix)
        token = await sem_holder.acquire()
        await asyncio.sleep(0.9)  # three lease lengths
        refused = await sem_other.try_acquire() is None
        await sem_holder.release(token)
        freed = await sem_other.try_acquire()
        await sem_other.release(freed)
        await holder.aclose()
        await other.aclose()
        return refused, freed

    refused, freed = asyncio.run(scenario())
    assert refused and freed is not None


def test_the_rate_limiter_delays_the_request_past_the_limit_until_the_window_moves(redis_prefix):
    async def scenario():
        redis = _redis()
        limiter = RateLimiter(redis, 10, 3, window_s=2.0, prefix=redis_prefix)
        started = time.monotonic()
        times = []
        for _ in range(4):
            await limiter.acquire()
            times.append(time.monotonic() - started)
        await redis.aclose()
        return times

    times = asyncio.run(scenario())
    assert times[2] < 1.0  # three within the limit go at once (a loaded machine's Redis round trips aside)
    assert 1.9 < times[3] < 4  # the fourth waits for the window to move


def test_client_calls_to_one_endpoint_with_concurrency_one_do_not_overlap(redis_prefix, settings):
    endpoint_id = int(uuid.uuid4().int % 10**9)
    calls: list[dict] = []

    async def two_calls(fake):
        llm_a = client(fake, calls, endpoint_id=endpoint_id, concurrency=1)
        llm_b = client(fake, calls, endpoint_id=endpoint_id, concurrency=1)
        started = time.monotonic()
        await asyncio.gather(llm_a.complete(MESSAGES), llm_b.complete(MESSAGES))
        elapsed = time.monotonic() - started
        await asyncio.gather(llm_a.aclose(), llm_b.aclose())
        return elapsed

    with FakeOpenAI([reply("slow", delay_s=0.4)]) as fake:
        elapsed = asyncio.run(two_calls(fake))

    async def leftovers():
        redis = _redis()
        keys = await redis.keys(f"lifeplanner:endpoint:{endpoint_id}:*")
        held = sum([await redis.zcard(k) for k in keys])
        if keys:
            await redis.delete(*keys)
        await redis.aclose()
        return held

    assert elapsed >= 0.8  # serialized, not 0.4 in parallel
    assert asyncio.run(leftovers()) == 0  # both slots were released
    assert [c["attempts"] for c in calls] == [1, 1]


def test_endpoint_limits_release_the_slot_when_the_request_fails(redis_prefix):
    async def scenario():
        limits = EndpointLimits(_redis(), 11, concurrency=1, requests_per_minute=100, prefix=redis_prefix)
        with pytest.raises(RuntimeError):
            async with limits.slot():
                raise RuntimeError("the request failed")
        await limits.settled()
        held = await limits.semaphore.holders()
        await limits.aclose()
        return held

    assert asyncio.run(scenario()) == 0


class CountingRedis(Redis):
    """Counts the scripts run (taking a slot is one) and can hold back giving slots back until ``released``."""

    scripts = 0
    released: asyncio.Event | None = None

    async def eval(self, *args):
        CountingRedis.scripts += 1
        return await super().eval(*args)

    async def zrem(self, *args):
        if CountingRedis.released is not None:
            await CountingRedis.released.wait()
        return await super().zrem(*args)


def _counting_limits(redis_prefix, **kwargs) -> EndpointLimits:
    from django.conf import settings

    CountingRedis.scripts, CountingRedis.released = 0, None
    return EndpointLimits(
        CountingRedis.from_url(settings.REDIS_URL),
        12,
        concurrency=1,
        requests_per_minute=None,
        prefix=redis_prefix,
        **kwargs,
    )


def test_a_clients_next_request_takes_its_parked_slot_without_asking_redis(redis_prefix):
    """After an answer the slot stays with the client: three turns take one slot from Redis, the slot counts
    in Redis all along (the cap holds), and it goes back, without the caller waiting, when the client is done."""

    async def scenario():
        limits = _counting_limits(redis_prefix)
        for _ in range(3):
            async with limits.slot():
                pass
            held_between_turns = await limits.semaphore.holders()
        taken_from_redis = CountingRedis.scripts - 3  # minus the three holders() scripts
        CountingRedis.released = asyncio.Event()
        limits.give_back()  # returns at once: the slot goes back in the background
        held_before_redis_took_it = await limits.semaphore.holders()
        CountingRedis.released.set()
        await limits.settled()
        held_after = await limits.semaphore.holders()
        await limits.aclose()
        return taken_from_redis, held_between_turns, held_before_redis_took_it, held_after

    assert asyncio.run(scenario()) == (1, 1, 1, 0)


def test_a_parked_slot_goes_back_when_no_next_request_comes(redis_prefix):
    async def scenario():
        limits = _counting_limits(redis_prefix, park_s=0.05)
        async with limits.slot():
            pass
        parked = await limits.semaphore.holders()
        await asyncio.sleep(0.3)
        await limits.settled()
        after_the_park = await limits.semaphore.holders()
        await limits.aclose()
        return parked, after_the_park

    assert asyncio.run(scenario()) == (1, 0)


def test_a_parked_slot_is_not_another_clients_until_it_goes_back(redis_prefix):
    """With concurrency one, a second client waits while the first client's slot is parked, and gets it
    once the first client is done."""

    async def scenario():
        first, second = _counting_limits(redis_prefix), _counting_limits(redis_prefix)
        async with first.slot():
            pass
        got_it = asyncio.Event()

        async def second_request():
            async with second.slot():
                got_it.set()

        waiting = asyncio.create_task(second_request())
        await asyncio.sleep(0.3)
        blocked = not got_it.is_set()
        first.give_back()
        await asyncio.wait_for(waiting, 5)
        await first.aclose()
        held_by_second = await second.semaphore.holders()  # parked with the second client now
        await second.aclose()
        return blocked, held_by_second

    assert asyncio.run(scenario()) == (True, 1)


def test_a_call_waits_out_a_redis_outage_of_the_caps_instead_of_failing_as_the_model(redis_prefix, caplog):
    calls: list[dict] = []

    async def through_an_outage(fake, proxy):
        llm = client(
            fake, calls, endpoint_id=int(uuid.uuid4().int % 10**9), redis_url=f"redis://127.0.0.1:{proxy.port}/0"
        )
        proxy.refuse()
        call = asyncio.create_task(llm.complete(MESSAGES))
        await asyncio.sleep(0.5)
        proxy.accept()
        response = await call
        await llm.aclose()
        return response

    with FakeOpenAI([reply("ok")]) as fake, TcpProxy("127.0.0.1", 6379) as proxy:
        response = asyncio.run(through_an_outage(fake, proxy))
    assert response["choices"][0]["message"]["content"] == "ok"
    assert len(fake.requests) == 1 and calls[0]["attempts"] == 1 and calls[0]["error"] == ""
    assert calls[0]["latency_ms"] >= 400  # it waited for Redis; no attempt of the model was spent on it
    assert "Redis is unreachable for the caps" in caplog.text


def test_the_caps_give_up_on_redis_after_their_patience(redis_prefix):
    async def refused(proxy):
        semaphore = ConcurrencySemaphore(
            Redis.from_url(f"redis://127.0.0.1:{proxy.port}/0"), 12, 1, prefix=redis_prefix, patience_s=0.3
        )
        started = time.monotonic()
        try:
            with pytest.raises(RedisConnectionError):
                await semaphore.acquire()
            return time.monotonic() - started
        finally:
            await semaphore.redis.aclose()

    with TcpProxy("127.0.0.1", 6379) as proxy:
        proxy.refuse()
        waited = asyncio.run(refused(proxy))
    assert 0.3 <= waited < 5


def test_a_slot_that_cannot_be_given_back_does_not_fail_an_answered_call(redis_prefix, caplog):
    calls: list[dict] = []

    async def outage_while_the_model_answers(fake, proxy):
        llm = client(
            fake, calls, endpoint_id=int(uuid.uuid4().int % 10**9), redis_url=f"redis://127.0.0.1:{proxy.port}/0"
        )
        call = asyncio.create_task(llm.complete(MESSAGES))
        for _ in range(500):  # until the slot is taken and the model is answering (however loaded the machine)
            if fake.requests:
                break
            await asyncio.sleep(0.01)
        proxy.refuse()
        response = await call
        await llm.aclose()
        return response

    with FakeOpenAI([reply("answered", delay_s=0.8)]) as fake, TcpProxy("127.0.0.1", 6379) as proxy:
        response = asyncio.run(outage_while_the_model_answers(fake, proxy))
    assert response["choices"][0]["message"]["content"] == "answered"
    assert len(fake.requests) == 1 and calls[0]["attempts"] == 1  # not asked twice
    assert "could not give back a slot" in caplog.text


def test_each_recorded_call_is_its_whole_request_scrubbed_even_when_earlier_messages_change_in_place():
    calls: list[dict] = []
    conversation = [
        {"role": "system", "content": "You are a geographic assistant."},
        {"role": "user", "content": f"my key is {API_KEY}"},
    ]

    async def edited_history(llm):
        await llm.complete(conversation, TOOLS)
        conversation.append({"role": "assistant", "content": "noted"})
        await llm.complete(conversation, TOOLS)  # a continuation: the earlier scrubbed messages are reused
        conversation[0]["content"] = "You are a careful geographic assistant."  # edited in place
        await llm.complete(conversation, TOOLS)

    with FakeOpenAI([reply("ok")]) as fake:
        asyncio.run(edited_history(client(fake, calls)))
    recorded = [c["request"] for c in calls]
    assert API_KEY not in json.dumps(recorded)
    assert recorded[1]["messages_before"] == 2 and recorded[1]["tools_as_before"] is True
    assert "messages_before" not in recorded[2]  # the history changed: recorded whole, as it was sent
    assert recorded[2]["messages"][0]["content"] == "You are a careful geographic assistant."
    assert recorded[2]["messages"][1]["content"] == "my key is [redacted]"
    sent = [[m["content"] for m in body["messages"]] for body in fake.requests]
    scrubbed = [[m["content"].replace(API_KEY, "[redacted]") for m in r["messages"]] for r in full_requests(recorded)]
    assert scrubbed == [[c.replace(API_KEY, "[redacted]") for c in s] for s in sent]


def test_the_request_sent_is_the_openai_request_and_nothing_of_litellms_own_parameters():
    """The client gives litellm a nominal price per call (litellm's price is not used); none of that is sent."""
    calls: list[dict] = []
    tools = [{"type": "function", "function": {"name": "probe", "description": "d", "parameters": {"type": "object"}}}]
    with FakeOpenAI([reply("ok")]) as fake:
        asyncio.run(client(fake, calls).complete(MESSAGES, tools))
    (body,) = fake.requests
    assert set(body) == {"model", "messages", "tools", "temperature"}, body
    assert body["model"] == "fake" and body["messages"] == MESSAGES and body["tools"] == tools
    assert "cost" not in json.dumps(calls[0]["request"])  # nor recorded


def test_the_clients_of_one_endpoint_share_its_http_client_and_each_request_is_judged_on_its_own():
    """One HTTP client per endpoint and event loop, kept past a trajectory's aclose; what the egress checks
    saw is told per request, so a refusal of one case's request is not another's on the same client."""

    def answer(body: dict) -> dict:
        if "redirect" in body["messages"][-1]["content"]:
            return {"status": 302, "delay_s": 0.2, "body": {}}
        return reply("fine", delay_s=0.2)

    async def run(fake):
        calls: list[dict] = []
        fine, refused = client(fake, calls, shared_http=True), client(fake, calls, shared_http=True)
        assert fine._endpoint_client()[1] is refused._endpoint_client()[1]
        other_key = LLMClient(
            EndpointSpec(endpoint_id=None, model="openai/fake", api_base=fake.url, api_key="sk-other"),
            shared_http=True,
        )
        assert other_key._endpoint_client()[1] is not fine._endpoint_client()[1]
        outcomes = await asyncio.gather(
            fine.complete(MESSAGES),
            refused.complete([{"role": "user", "content": "please redirect"}]),
            return_exceptions=True,
        )
        await asyncio.gather(fine.aclose(), refused.aclose(), other_key.aclose())
        later = client(fake, calls, shared_http=True)
        after = await later.complete(MESSAGES)  # the shared client outlived the others' aclose
        await later.aclose()
        return outcomes, after

    with FakeOpenAI([answer]) as fake:
        (answered, failure), after = asyncio.run(run(fake))
        redirects = [body for body in fake.requests if "redirect" in body["messages"][-1]["content"]]
    assert answered["choices"][0]["message"]["content"] == "fine"
    assert isinstance(failure, ModelError) and str(failure).startswith("refused:") and "redirect" in str(failure)
    assert len(redirects) == 1  # a refusal is not retried
    assert after["choices"][0]["message"]["content"] == "fine"


def test_the_shared_client_keeps_a_connection_per_request_in_flight_and_checks_one_per_request(monkeypatch):
    """Each kept-alive connection serves one request at a time: eight cases at once open eight connections,
    the next eight requests reuse them, and a request checks whether the server closed only the connection
    it takes, once (one pool of all of them checked every connection at every request and response; a pool of
    one per lane checked its connection at the request and again at the response)."""
    from benchmark.endpoints import egress_http

    checks = []
    readable = egress_http._SocketKnownStream.get_extra_info

    def counted(stream, info):
        if info == "is_readable":
            checks.append(stream)
        return readable(stream, info)

    monkeypatch.setattr(egress_http._SocketKnownStream, "get_extra_info", counted)

    async def run(fake):
        cases = [client(fake, [], shared_http=True) for _ in range(8)]
        await asyncio.gather(*(case.complete(MESSAGES) for case in cases))
        await asyncio.gather(*(case.complete(MESSAGES) for case in cases))
        checks.clear()
        await cases[0].complete(MESSAGES)
        alone = len(checks)
        for case in cases:
            await case.aclose()
        return alone

    # each answer waits 1 s, so the eight requests of a round are in flight together even on a loaded machine
    with FakeOpenAI([reply("ok", delay_s=1.0)], keep_alive=True) as fake:
        alone = asyncio.run(run(fake))
    assert len(set(fake.peers[:8])) == 8
    assert set(fake.peers[8:16]) == set(fake.peers[:8])  # no connection opened for the second round
    assert fake.peers[16] in fake.peers[:8]
    assert alone == 1, alone  # its own connection, when the request takes it


def test_a_request_cancelled_on_the_shared_client_leaves_it_answering_the_next():
    """A case cancelled mid-request (its run cancelled, its worker stopping) gives its connection's place back."""

    async def run(fake):
        first = client(fake, [], shared_http=True)
        waiting = asyncio.create_task(first.complete(MESSAGES))
        while not fake.requests:
            await asyncio.sleep(0.01)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        await first.aclose()
        answers = []
        for _ in range(2):
            later = client(fake, [], shared_http=True)
            answers.append(await later.complete(MESSAGES))
            await later.aclose()
        return answers, len(_lanes_of(later)._lanes)

    with FakeOpenAI([reply("slow", delay_s=0.5), reply("ok")], keep_alive=True) as fake:
        answers, lanes = asyncio.run(run(fake))
    assert [a["choices"][0]["message"]["content"] for a in answers] == ["ok", "ok"]
    assert fake.peers[1] != fake.peers[0] and fake.peers[2] == fake.peers[1]  # the cut connection is not reused
    assert lanes == 1  # the cut connection's lane closed and dropped; one new lane served both later requests


def _lanes_of(llm: LLMClient):
    return llm._endpoint_client()[1]._client._transport._direct._pool  # the OpenAI SDK's httpx client's transport


async def _keep_alive_server():
    """A local HTTP/1.1 server answering every request on a connection with a 2-byte body."""

    async def serve(reader, writer):
        with contextlib.suppress(Exception):
            while True:
                head = b""
                while b"\r\n\r\n" not in head:
                    chunk = await reader.read(65536)
                    if not chunk:
                        return
                    head += chunk
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                await writer.drain()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    return server, f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/"


def test_a_response_cancelled_while_it_is_read_or_closed_never_leaves_a_busy_connection_for_the_next_request():
    """Cancelled at any point of reading and closing its response, a request leaves its lane either idle or
    closed and dropped: the next request is answered, and no lane is kept that is neither (a lane given back
    with its connection still busy made every later request on it wait out the pool's timeout, when a lane
    was a pool)."""
    import httpx

    from benchmark.endpoints.egress_http import _PinnedTransport

    async def run():
        server, url = await _keep_alive_server()
        outcomes = []
        for steps in range(8):  # where the cancel lands: after 0 to 7 turns of the loop
            transport = _PinnedTransport()
            client = httpx.AsyncClient(transport=transport, timeout=5)
            response = await client.send(client.build_request("GET", url), stream=True)
            reading = asyncio.create_task(response.aread())
            for _ in range(steps):
                await asyncio.sleep(0)
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reading
            await response.aclose()
            lanes = transport._pool
            busy = [lane for idle in lanes._idle.values() for lane, _ in idle if not lane.is_idle() or lane.is_closed()]
            outcomes.append(((await client.get(url)).status_code, len(busy), len(lanes._lanes)))
            await client.aclose()
        server.close()
        return outcomes

    assert asyncio.run(run()) == [(200, 0, 1)] * 8


def test_a_request_cancelled_while_its_connection_is_made_leaves_no_lane_behind(monkeypatch):
    """A request cancelled before its connection is open (its case cancelled while connecting) drops the lane
    it took; the next request opens a connection of its own and is answered."""
    import httpx

    from benchmark.endpoints import egress_http

    connect = egress_http._PinnedBackend.connect_tcp
    slow = asyncio.Event()

    async def hanging_once(backend, *args, **kwargs):
        if not slow.is_set():
            slow.set()
            await asyncio.sleep(30)
        return await connect(backend, *args, **kwargs)

    monkeypatch.setattr(egress_http._PinnedBackend, "connect_tcp", hanging_once)

    async def run():
        server, url = await _keep_alive_server()
        transport = egress_http._PinnedTransport()
        client = httpx.AsyncClient(transport=transport, timeout=5)
        request = asyncio.create_task(client.get(url))
        await slow.wait()
        request.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await request
        left = len(transport._pool._lanes)
        status = (await client.get(url)).status_code
        await client.aclose()
        server.close()
        return left, status, len(transport._pool._lanes)

    assert asyncio.run(run()) == (0, 200, 1)


def test_a_lane_idle_past_the_keep_alive_is_closed_when_the_next_request_comes(monkeypatch):
    from benchmark.endpoints import egress_http

    monkeypatch.setattr(egress_http, "KEEPALIVE_S", 0.3)

    async def run(fake):
        cases = [client(fake, [], shared_http=True) for _ in range(3)]
        await asyncio.gather(*(case.complete(MESSAGES) for case in cases))
        lanes = _lanes_of(cases[0])
        after_burst = len(lanes._lanes)
        await asyncio.sleep(0.5)
        await cases[0].complete(MESSAGES)
        for case in cases:
            await case.aclose()
        return after_burst, len(lanes._lanes)

    with FakeOpenAI([reply("ok", delay_s=1.0)], keep_alive=True) as fake:  # the three in flight together
        after_burst, after_quiet = asyncio.run(run(fake))
    assert (after_burst, after_quiet) == (3, 1)  # the three idle lanes closed, one opened for the request
    assert len(set(fake.peers[:3])) == 3 and fake.peers[3] not in fake.peers[:3]


def test_a_trajectorys_slot_is_back_in_redis_when_its_client_is_closed(redis_prefix, settings):
    """With the worker's shared Redis, aclose waits for the parked slot to reach Redis: the worker's next case
    does not find the cap full of slots still on their way back."""
    endpoint_id = int(uuid.uuid4().int % 10**9)

    async def run(fake):
        redis = _redis()
        llm = client(fake, [], endpoint_id=endpoint_id, concurrency=1, redis=redis)
        await llm.complete(MESSAGES)
        keys = await redis.keys(f"lifeplanner:endpoint:{endpoint_id}:*")
        parked = sum([await redis.zcard(k) for k in keys])
        await llm.aclose()
        held = sum([await redis.zcard(k) for k in keys])
        if keys:
            await redis.delete(*keys)
        await redis.aclose()
        return parked, held

    with FakeOpenAI([reply("ok")]) as fake:
        parked, held = asyncio.run(run(fake))
    assert (parked, held) == (1, 0)


def test_closing_the_shared_transport_as_litellm_does_after_a_connect_error_leaves_other_requests_alone():
    """litellm closes a client it built on the transport for a retry after a connect error; on the shared
    client that close must not cut the other cases' requests in flight. A client of its own is closed."""
    from benchmark.endpoints.egress_http import shared_endpoint_client
    from benchmark.endpoints.providers import endpoint_route

    async def run(fake):
        slow = client(fake, calls, shared_http=True)
        in_flight = asyncio.create_task(slow.complete(MESSAGES))
        while not fake.requests:  # until the request is on its connection, waiting for the answer
            await asyncio.sleep(0.01)
        route = endpoint_route(model="openai/fake", api_base=fake.url, api_key=API_KEY, params={}, resolve=False)
        _, transport = shared_endpoint_client(route, timeout_s=slow.timeout_s)
        await transport.aclose()
        answer = await in_flight
        await slow.aclose()
        own = client(fake, [])
        await own.complete(MESSAGES)
        http = own._endpoint_client()[1]
        await own.aclose()
        return answer, http.is_closed()

    calls: list[dict] = []
    with FakeOpenAI([reply("slow", delay_s=1.0)]) as fake:
        answer, own_closed = asyncio.run(run(fake))
    assert answer["choices"][0]["message"]["content"] == "slow"
    assert calls[0]["attempts"] == 1  # its connection was not cut (a cut one is retried)
    assert own_closed


def test_waiting_for_slots_on_their_way_back_gives_up_after_its_timeout_and_leaves_them_going(redis_prefix):
    async def run():
        redis = _redis()
        limits = EndpointLimits(redis, int(uuid.uuid4().int % 10**9), concurrency=1, requests_per_minute=None)
        stuck = asyncio.create_task(asyncio.sleep(5))  # a give-back that Redis does not answer
        limits._giving_back.add(stuck)
        started = time.monotonic()
        await limits.settled(timeout_s=0.2)
        waited = time.monotonic() - started
        still_going = not stuck.done()
        stuck.cancel()
        await redis.aclose()
        return waited, still_going

    waited, still_going = asyncio.run(run())
    assert 0.15 < waited < 1.0 and still_going
