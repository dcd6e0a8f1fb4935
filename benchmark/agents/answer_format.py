"""The answer format every agent is told: figure 9's block, written once.

The ``litellm`` scaffold's system prompt embeds :data:`ANSWER_FORMAT` between its two ``---``
lines; the run-mode MCP server gives it to external agents in its instructions and, with the
fields the case is scored on, in every ``next_case`` (:func:`answer_format`); docs/evaluation.md
shows it (a test checks that the document holds this exact text). Recorded runs replay against
the scaffold's prompt, so the block must not change.
"""

from __future__ import annotations

from kernel.vocabulary import Category

# Figure 9's answer format, verbatim but for the direct "answer" field and the top-level
# "name"/"place_id" of a single place (and the line that explains them).
ANSWER_FORMAT = """You MUST call submit_answer(result=<your_answer>) where <your_answer> is a single JSON object containing ALL of the following fields:
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

IMPORTANT: Pass the ENTIRE object above as the `result` parameter. Do NOT split fields into separate parameters. Use the EXACT field names shown above."""  # noqa: E501

_ROUTE_FIELDS = '"start", "end", "waypoints", "vehicle", "mode", "total_distance_m", "total_time_s"'

# The fields a case of each category is scored on (judging.answers reads them; judging.metrics scores them).
_CITE = ' Cite the notes and record fields you used in "ref" ("note_id", "attribute_key").'
SCORED_FIELDS: dict[str, str] = {
    Category.PLACE_PERCEPTION: 'A place_perception case is scored on "answer" (the value alone), or on '
    '"name"/"place_id" when the question asks for a place.' + _CITE,
    Category.NEARBY_DISCOVERY: 'A nearby_discovery case is scored on "name"/"place_id" of the place found.' + _CITE,
    Category.ROUTING: f'A routing case is scored on {_ROUTE_FIELDS} and "optimal_order".' + _CITE,
    Category.TRIP_DESIGN: f'A trip_design case is scored on {_ROUTE_FIELDS} and "optimal_order".' + _CITE,
}


def answer_format(category: str) -> str:
    """The answer format for a case of ``category``: figure 9's block and the fields the case is scored on.

    Raises:
        KeyError: for a category that is not one of the four.
    """
    return f"{ANSWER_FORMAT}\n\n{SCORED_FIELDS[category]}"


def answer_format_guide() -> str:
    """The block and the scored fields of every category: what an agent is told before it sees a case."""
    return "\n\n".join([ANSWER_FORMAT, "\n".join(SCORED_FIELDS.values())])
