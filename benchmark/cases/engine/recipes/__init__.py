"""One recipe per task cell: ``recipe(session, rng) -> Draft`` or ``Discard``.

The registry maps (category, level) to its recipe; the runner calls them with a fresh
session and a seeded random stream per attempt.
"""

from __future__ import annotations

from collections.abc import Callable

from . import nearby, nearby_needs, place, place_checks, place_needs, routing, trip, trip_needs  # noqa: F401  (registers)
from .registry import RECIPES


def load_recipes() -> dict[tuple[str, str], Callable]:
    """Every registered recipe by (category, level), in registration order."""
    recipes = {}
    for name in RECIPES.names():
        category, level = name.split("/")
        recipes[category, level] = RECIPES.get(name)
    return recipes
