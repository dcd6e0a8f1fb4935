"""The applicability matrix (table 11) and the metric registry."""

from __future__ import annotations

import pytest

from judging.metrics import applicability_markdown, applicable_metrics, applies, get_metric, metric
from judging.metrics.applicability import all_result_names
from kernel.vocabulary import CELLS


def test_there_are_eleven_cells_and_trip_has_no_l0():
    assert len(CELLS) == 11
    assert ("trip_design", "L0") not in CELLS
    with pytest.raises(ValueError):
        applies("A", "trip_design", "L0")


def test_sc_and_oc_do_not_apply_at_l0():
    assert not applies("SC", "nearby_discovery", "L0") and applies("SC", "nearby_discovery", "L1")
    assert not applies("OC", "routing", "L0") and applies("OC", "routing", "L2")
    assert not applies("OC", "nearby_discovery", "L2")


def test_routing_deviation_applies_to_routes_only_under_both_names():
    assert applies("RD_time", "trip_design", "L1") and applies("RD_distance", "routing", "L0")
    assert not applies("RD", "place_perception", "L2")


def test_everywhere_metrics():
    for name in ("A", "PIoU", "IG", "TE", "RP", "tokens"):
        assert all(applies(name, *cell) for cell in CELLS)


def test_metric_lists_per_cell():
    assert applicable_metrics("place_perception", "L0") == ["A", "PIoU", "IG", "TE", "RP", "tokens"]
    assert applicable_metrics("trip_design", "L2") == all_result_names()


def test_unknown_metric_is_rejected():
    with pytest.raises(KeyError):
        applies("BLEU", "routing", "L1")


def test_markdown_table_has_a_row_per_metric_and_a_column_per_cell():
    lines = applicability_markdown().splitlines()
    assert len(lines) == 2 + 9
    assert lines[0].count("|") == 11 + 2
    oc_row = next(line for line in lines if line.startswith("| Order Consistency"))
    assert oc_row.count("✓") == 4


def test_registry_rejects_a_duplicate_name():
    with pytest.raises(ValueError, match="already registered"):
        metric("PIoU", kind="outcome")(lambda *a, **k: None)
    assert get_metric("PIoU").kind == "outcome"
    assert get_metric("TE").kind == "process"
