"""The recipe registry: each recipe module registers its cells with ``recipe(category, level)``."""

from __future__ import annotations

from collections.abc import Callable

from kernel.registry import Registry
from kernel.vocabulary import CELLS, Category, Level, cell_key

RECIPES: Registry[Callable] = Registry("recipe")  # named by cell_key, e.g. "routing/L1"


def recipe(category: Category, level: Level) -> Callable[[Callable], Callable]:
    """Register the recipe of the cell (category, level); a cell that is not one of the 11, or a second
    recipe for the same cell, is an error."""
    if (category, level) not in CELLS:
        raise ValueError(f"({category}, {level}) is not a benchmark cell")
    return RECIPES.register(cell_key(category, level))
