"""Which metric applies to which (category, level) cell: table 11 of the paper, written once.

Trip Design has no L0, so there are 11 cells. Order Consistency and Semantic Constraint do not
apply at L0 (table 3: single-hop lookups have no order or semantic constraint to check).
Routing Deviation is one row of the matrix but two results (RD_distance and RD_time).
"""

from __future__ import annotations

from kernel.vocabulary import CELLS, ROUTE_CATEGORIES, Category, Level

# metric -> (label for the table, rule over (category, level))
_RULES = {
    "A": ("Attribute Accuracy (A)", lambda c, lv: True),
    "PIoU": ("Place-set IoU (PIoU)", lambda c, lv: True),
    "RD": ("Routing Deviation (RD_distance, RD_time)", lambda c, lv: c in ROUTE_CATEGORIES),
    "OC": ("Order Consistency (OC)", lambda c, lv: c in ROUTE_CATEGORIES and lv != Level.L0),
    "SC": ("Semantic Constraint (SC)", lambda c, lv: lv != Level.L0),
    "IG": ("Information Grounding (IG)", lambda c, lv: True),
    "TE": ("Tool Efficiency (TE)", lambda c, lv: True),
    "RP": ("Reasoning Purity (RP)", lambda c, lv: True),
    "tokens": ("Token Usage (tokens)", lambda c, lv: True),
}

APPLICABILITY: dict[str, frozenset[tuple[str, str]]] = {
    name: frozenset(cell for cell in CELLS if rule(*cell)) for name, (_, rule) in _RULES.items()
}

_RESULT_NAMES = {"RD": ("RD_distance", "RD_time")}
_ROW_OF = {result: row for row, results in _RESULT_NAMES.items() for result in results}


def applies(metric: str, category: str, level: str) -> bool:
    """Whether ``metric`` (a row name such as ``"OC"`` or a result name such as ``"RD_time"``) applies to the cell.

    Raises:
        KeyError: for an unknown metric.
        ValueError: for a cell that is not one of the 11.
    """
    if (category, level) not in CELLS:
        raise ValueError(f"({category!r}, {level!r}) is not a benchmark cell")
    row = _ROW_OF.get(metric, metric)
    if row not in APPLICABILITY:
        raise KeyError(f"no metric {metric!r} in the applicability matrix")
    return (category, level) in APPLICABILITY[row]


def applicable_metrics(category: str, level: str) -> list[str]:
    """The result names that apply to a cell, in matrix order (RD expanded to RD_distance and RD_time)."""
    names: list[str] = []
    for row in _RULES:
        if applies(row, category, level):
            names += _RESULT_NAMES.get(row, (row,))
    return names


def all_result_names() -> list[str]:
    """Every result name of the matrix (RD expanded), in matrix order."""
    return [name for row in _RULES for name in _RESULT_NAMES.get(row, (row,))]


def applicability_markdown() -> str:
    """The matrix as a markdown table (✓ applies, – does not), one column per cell."""
    head = "| Metric | " + " | ".join(f"{Category(c).short} {lv}" for c, lv in CELLS) + " |"
    rule = "|---|" + "---|" * len(CELLS)
    rows = [
        f"| {label} | " + " | ".join("✓" if cell in APPLICABILITY[name] else "–" for cell in CELLS) + " |"
        for name, (label, _) in _RULES.items()
    ]
    return "\n".join([head, rule, *rows])
