"""One recipe per task cell: ``recipe(session, rng) -> Draft`` or ``Discard``.

The registry maps (category, level) to its recipe; the runner calls them with a fresh
session and a seeded random stream per attempt.
"""
from __future__ import annotations

from collections.abc import Callable

RECIPES: dict[tuple[str, str], Callable] = {}


def recipe(category: str, level: str) -> Callable:
    def register(func: Callable) -> Callable:
        key = (category, level)
        if key in RECIPES:
            raise ValueError(f"a recipe for {key} is already registered")
        RECIPES[key] = func
        return func

    return register


def load_recipes() -> dict[tuple[str, str], Callable]:
    from . import nearby, nearby_needs, place, place_checks, place_needs, routing, trip, trip_needs  # noqa: F401  (importing registers them)

    return RECIPES
