"""Every agent is told the same answer format: the scaffold's prompt, the run-mode MCP server and the docs.

The MCP tests talk to ``manage.py serve_run_mcp`` over real HTTP with the SDK's client, like
test_external_agents.py, and so work in autocommit on the committed release.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from benchmark.agents.answer_format import ANSWER_FORMAT, SCORED_FIELDS, answer_format
from benchmark.agents.litellm_agent import SYSTEM_PROMPT
from benchmark.external.agents import external_run_create
from kernel.vocabulary import Category

DOCS = Path(__file__).resolve().parents[2] / "docs" / "evaluation.md"

# The scaffold's prompt as it was written out in litellm_agent.py when runs were recorded; replays
# and comparisons with earlier runs need the composed prompt to stay exactly this text.
FIGURE_9_PROMPT = """You are a geographic information assistant. Use the available tools to answer the user's question.

CRITICAL RULES:
1. NEVER hallucinate or fabricate data. ALL reasoning MUST be grounded in tool return results.
2. You MUST call tools to get real data before answering.
3. If your answer references social media insights, you MUST include ALL relevant note_ids in the ref field.
4. Use the EXACT values (names, IDs, distances, times) returned by tools.
5. After completing your analysis, you MUST call submit_answer() to deliver your final answer as a structured JSON object. Do NOT output JSON as plain text - always use submit_answer().

---
You MUST call submit_answer(result=<your_answer>) where <your_answer> is a single JSON object containing ALL of the following fields:
{
  "answer": "<direct answer for yes/no or attribute questions; omit otherwise>",
  "name": "NAME", "place_id": "PLACE_ID",
  "start": {"name": "NAME", "place_id": "PLACE_ID", "reason": "Why this place was selected based on criteria."},
  "end": {"name": "NAME", "place_id": "PLACE_ID", "reason": "Why this place was selected based on criteria."},
  "waypoints": [
    {"name": "NAME", "place_id": "PLACE_ID", "reason": "Why this place was selected based on criteria.",
     "ref": {"note_id": "NOTE_ID1,NOTE_ID2,...", "attribute_key": "comma-separated keys. tag:keyword,rating,cost", "implicit_logic": "True"}}
  ],
  "optimal_order": [
    {"name": "NAME", "place_id": "PLACE_ID", "visit_order": 1},
    ...
  ],
  "vehicle": "VEHICLE",
  "mode": "MODE",
  "total_distance_m": <number>,
  "total_time_s": <number>,
  "constraints_satisfied": ["description of each constraint met"]
}
("name"/"place_id" at the top level: the answer place when the question asks for a single place; omit otherwise.)

IMPORTANT: Pass the ENTIRE object above as the `result` parameter. Do NOT split fields into separate parameters. Use the EXACT field names shown above.

---
Now answer the following question: {question}"""  # noqa: E501


# ---------------------------------------------------------------- the text


def test_the_scaffold_prompt_built_from_the_shared_block_is_the_recorded_figure_9_prompt():
    assert SYSTEM_PROMPT == FIGURE_9_PROMPT
    assert SYSTEM_PROMPT.split("\n---\n")[1] == ANSWER_FORMAT + "\n"  # the block is the part between the '---'s


def test_each_category_gets_the_block_and_the_fields_it_is_scored_on():
    assert set(SCORED_FIELDS) == set(Category)
    for category in Category:
        assert answer_format(category) == f"{ANSWER_FORMAT}\n\n{SCORED_FIELDS[category]}"
        assert category in SCORED_FIELDS[category]
    assert all('"optimal_order"' in SCORED_FIELDS[c] for c in ("routing", "trip_design"))  # OC reads it
    with pytest.raises(KeyError):
        answer_format("sightseeing")


def test_the_evaluation_docs_show_the_exact_block_and_every_categorys_fields():
    text = DOCS.read_text(encoding="utf-8")
    assert "## The answer format" in text
    assert f"```text\n{ANSWER_FORMAT}\n```" in text
    for category, line in SCORED_FIELDS.items():
        assert f"| `{category}` | {line} |" in text


# ---------------------------------------------------------------- over MCP (run_url, autocommit_db: conftest.py)


async def _first_case(url: str, token: str) -> tuple[str | None, dict]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
    async with Client(streamable_http_client(url, http_client=http)) as client:
        return client.instructions, (await client.call_tool("next_case", {})).structured_content


def test_next_case_and_the_server_instructions_carry_the_answer_format(run_url, autocommit_db, eval_release):
    categories = sorted({entry.snapshot["category"] for entry in eval_release.entries.all()})
    assert categories == sorted(Category)  # the release exercises every category's line
    for category in categories:
        _, token = external_run_create(release=eval_release, name=f"format {category}", limit=1, category=category)

        instructions, case = asyncio.run(_first_case(run_url, token))

        assert ANSWER_FORMAT in instructions
        assert all(line in instructions for line in SCORED_FIELDS.values())
        assert case["answer_format"] == answer_format(category)
        assert SCORED_FIELDS[category] in case["answer_format"]
