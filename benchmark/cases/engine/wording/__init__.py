"""Question skeletons per cell, as data: benchmark/cases/engine/recipes fill them."""
