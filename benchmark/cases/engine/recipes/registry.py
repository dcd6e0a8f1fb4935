"""The recipe registry: each recipe module registers its cells with ``recipe(category, level)``."""
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
