"""Question skeletons per cell, as data: benchmark/engine/recipes fill them."""
