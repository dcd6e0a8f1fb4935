"""The recipe registry: each recipe module registers its cells with ``recipe(category, level)``."""
from __future__ import annotations

from collections.abc import Callable

from environment.registry_base import Registry

RECIPES: Registry[Callable] = Registry("recipe")  # named "category/level", e.g. "routing/L1"


def recipe(category: str, level: str) -> Callable[[Callable], Callable]:
    """Register the recipe of the cell (category, level); a second one for the same cell is an error."""
    return RECIPES.register(f"{category}/{level}")
