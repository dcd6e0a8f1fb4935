"""The model endpoint fails a share of its calls (HTTP 500): retries with backoff absorb a fifth of
them; a call that fails every attempt ends its trajectory model_error, recorded; every (case, trial)
finishes once either way."""

from __future__ import annotations


def test_an_endpoint_failing_a_fifth_of_its_calls_still_completes_every_case_once(drill, django_db_blocker):
    with django_db_blocker.unblock():
        d = drill(cases=8, trials=2, fail_rate=0.2).start(concurrency=12)
        d.worker(concurrency=3)
        d.worker(concurrency=3)
        d.enqueue()
        seconds = d.wait_completed()
        d.check()
        fifth = d.figures("endpoint fails 20% of calls", seconds)

        d.endpoint.fail_rate = 0.8  # most calls now fail all 5 attempts
        d.new_run(cases=4, trials=1)
        d.enqueue()
        seconds = d.wait_completed()
        d.check()
        most = d.figures("endpoint fails 80% of calls", seconds)
    assert fifth.retries > 0, "no call was retried: the endpoint did not fail"
    assert fifth.discarded_requests == 0 and most.discarded_requests == 0  # no execution was thrown away
    assert most.model_errors > 0, "no call failed 5 times in a row at 80%: the failure path was not exercised"
