"""The benchmark's vocabulary, defined once: categories, levels, the 11 cells, how a trajectory ends.

The members are ``StrEnum``s: each equals its value (``Category.ROUTING == "routing"``), so they
go into JSON, the database and templates as the plain strings stored everywhere. Django model
choices are built from them (``benchmark.cases.models``, ``benchmark.runs.models``). Tool error
kinds belong to the tools: ``kernel.error_kinds``.
"""

from __future__ import annotations

from enum import StrEnum


class Category(StrEnum):
    """The paper's four task categories, in its order (table 2)."""

    PLACE_PERCEPTION = "place_perception"
    NEARBY_DISCOVERY = "nearby_discovery"
    ROUTING = "routing"
    TRIP_DESIGN = "trip_design"

    @property
    def label(self) -> str:
        """``"Place Perception"``."""
        return self.value.replace("_", " ").title()

    @property
    def prefix(self) -> str:
        """The case type's prefix (``"trip"`` in ``trip_L2``), as in the paper's instances."""
        return self.value.split("_")[0]

    @property
    def short(self) -> str:
        """A column heading: ``"Place"``, ``"Nearby"``, ``"Routing"``, ``"Trip"``."""
        return self.prefix.capitalize()


class Level(StrEnum):
    """Difficulty: L0 a single lookup, L1 a few hops, L2 a plan under constraints."""

    L0 = "L0"
    L1 = "L1"
    L2 = "L2"


# The (category, level) cells of table 2, in its order: Trip Design has no L0, so there are 11.
CELLS: tuple[tuple[Category, Level], ...] = tuple(
    (category, level)
    for category in Category
    for level in Level
    if (category, level) != (Category.TRIP_DESIGN, Level.L0)
)

ROUTE_CATEGORIES = (Category.ROUTING, Category.TRIP_DESIGN)  # their answer is a route


def cell_key(category: str, level: str) -> str:
    """A cell's key in table 2 and on the leaderboard: ``"routing/L1"``."""
    return f"{category}/{level}"


class Ending(StrEnum):
    """How a trajectory ended (``Trajectory.ended``)."""

    SUBMITTED = "submitted"
    BUDGET_EXHAUSTED = "budget_exhausted"
    MODEL_ERROR = "model_error"
    TIMEOUT = "timeout"
    INVALID_ANSWER = "invalid_answer"
    NO_SUBMISSION = "no_submission"
    # The model wrote what looks like a tool call in its text (``<tool_call>``, a JSON object naming a tool):
    # recorded, never run; after the one reminder the case ends so.
    TOOL_CALL_AS_TEXT = "tool_call_as_text"
    # The conversation grew past the model's context window: the server refused it; nothing is cut.
    CONTEXT_EXCEEDED = "context_exceeded"
