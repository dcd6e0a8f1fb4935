"""Process metrics that are high only because the agent read no note are marked so, on the run page and the replay.

An agent that never calls search_notes or note_detail makes few calls and no claim about what people wrote, so
Tool Efficiency and Reasoning Purity come out high (the heuristic's RP 100, TE 96-99); that is no grounding.
"""

from __future__ import annotations

import pytest

from benchmark.web.process_caveat import notes_caveat, trivially_high
from benchmark.web.replay.document import replay_payload
from tests.factories import release_with_cases, run_with_results

pytestmark = pytest.mark.django_db

NO_NOTES = [
    {"tool": "place_search", "arguments": {"query_name": "x"}, "observation": {"places": []}},
    {"tool": "submit_answer", "arguments": {"result": {}}, "observation": {"result": {}}},
]
WITH_NOTES = [
    {"tool": "search_notes", "arguments": {"keyword": "quiet"}, "observation": {"notes": []}},
    *NO_NOTES,
]
BADGE = '<span class="badge trivial">trivially high: no note read</span>'


@pytest.fixture
def release():
    return release_with_cases("caveat-v1", cells=[("routing", "L1"), ("routing", "L2")])


def test_the_rule_marks_only_te_and_rp_when_high_and_no_note_was_read():
    caveat = notes_caveat(calls=12, note_calls=0)
    assert caveat.startswith("This agent read no note (12 tool calls, none to search_notes or note_detail)")
    assert notes_caveat(calls=12, note_calls=1) == "" and notes_caveat(calls=0, note_calls=0) == ""
    assert trivially_high("RP", 1.0, caveat=caveat) and trivially_high("TE", 96.0, caveat=caveat, percent=True)
    assert not trivially_high("TE", 0.5, caveat=caveat) and not trivially_high("A", 1.0, caveat=caveat)
    assert not trivially_high("RP", 1.0, caveat="")


def test_the_run_page_marks_te_and_rp_of_a_run_that_read_no_note(client, release):
    blind = run_with_results(release, name="blind", steps=NO_NOTES)
    reader = run_with_results(release, name="reader", steps=WITH_NOTES)
    page = client.get(f"/runs/{blind.id}/").content.decode()
    assert "This agent read no note (4 tool calls, none to search_notes or note_detail)" in page
    assert page.count(BADGE) == 2  # TE and RP rows of table 3
    page = client.get(f"/runs/{reader.id}/").content.decode()
    assert BADGE not in page and "read no note" not in page


def test_the_replay_marks_them_per_case(client, release):
    blind = run_with_results(release, name="blind", steps=NO_NOTES).trajectories.first()
    reader = run_with_results(release, name="reader", steps=WITH_NOTES).trajectories.first()
    payload = replay_payload(trajectory=blind, user=None)
    assert {m["name"] for m in payload["metrics"] if m["trivial"]} == {"TE", "RP"}
    assert payload["process_caveat"].startswith("This agent read no note (2 tool calls")
    assert BADGE in client.get(f"/trajectories/{blind.id}/").content.decode()
    payload = replay_payload(trajectory=reader, user=None)
    assert payload["process_caveat"] == "" and not any(m["trivial"] for m in payload["metrics"])
