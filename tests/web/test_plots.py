"""The run page's plots (benchmark/web/plots): figure 5's panels, figure 6 and the tokens histogram,
read back as SVG: axes with titles and ticks, a legend entry per series, styles that differ without
colour, the scales chosen, text sizes, nothing drawn outside the figure, and the same bytes for the
same input. Figure 6 counts a call that worked but was labelled truncated or empty_result as a success."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from benchmark.web.plots import (
    STYLES,
    count_scale,
    exceedance,
    exceedance_steps,
    exceedance_svg,
    failures_svg,
    levels_svg,
    spans_orders,
    token_bins,
    token_histogram,
    tokens_svg,
)
from benchmark.web.plots.svg import CHAR_WIDTH, MIN_DESKTOP_SCALE
from benchmark.web.runs.report import CURVE_SERIES, tool_failures
from tests.factories import failing_scores, passing_scores, release_with_cases, run_with_results

ORDER = CURVE_SERIES  # All, then the four categories
ALL_PERFECT = {label: [1.0] * (20 if label == "All" else 5) for label in ORDER}
SPREAD = {
    "All": [0.0, 0.2, 0.5, 0.5, 0.9, 1.0],
    "Routing": [0.2, 0.5, 1.0],
    "Trip Design": [0.0, 0.5, 0.9],
}


def parse(svg) -> ET.Element:
    return ET.fromstring(str(svg))


def texts(root: ET.Element, cls: str | None = None) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter("text") if cls is None or t.get("class") == cls]


def view_box(root: ET.Element) -> tuple[float, float]:
    _, _, width, height = (float(v) for v in root.get("viewBox").split())
    return width, height


def legend_entries(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter("g") if g.get("class") == "legend-entry"]


def marker_centres(root: ET.Element) -> list[tuple[float, float]]:
    """(x, y) of each marker: a circle's centre, or the mean of a shape's corners."""
    centres = []
    for m in root.iter():
        if "marker" not in (m.get("class") or ""):
            continue
        if m.tag == "circle":
            centres.append((float(m.get("cx")), float(m.get("cy"))))
        else:
            corners = [tuple(map(float, p.strip("MLZ ").split(","))) for p in m.get("d").split() if "," in p]
            centres.append(
                (round(sum(x for x, _ in corners) / len(corners), 1), sum(y for _, y in corners) / len(corners))
            )
    return centres


# ------------------------------------------------------------------ every figure


def figures() -> dict[str, ET.Element]:
    rows = [
        {"tool": "place_search", "calls": 400, "failed": 40, "kinds": {"invalid_parameter": 30, "not_found": 10}},
        {"tool": "routing", "calls": 40, "failed": 3, "kinds": {"invalid_parameter": 3, "not_found": 0}},
        {"tool": "multi_stop_routing", "calls": 123_456, "failed": 12_345, "kinds": {"not_found": 12_345}},
    ]
    return {
        "exceedance": parse(exceedance_svg("RP", SPREAD, order=ORDER)),
        "failures": parse(failures_svg(rows, ["invalid_parameter", "not_found"])),
        "tokens": parse(tokens_svg([1_000, 20_000, 25_000], [300, 400_000])),
        "levels": parse(levels_svg(LEVEL_SERIES, levels=("L0", "L1", "L2"))),
    }


LEVEL_SERIES = [
    ("gpt-<5>", {"L0": 100.0, "L1": 54.5, "L2": 0.0}),
    *[(f"a run with a rather long name, number {i}", {"L0": 12.5 * i, "L1": 33.3, "L2": None}) for i in range(5)],
]


@pytest.mark.parametrize("name", ["exceedance", "failures", "tokens", "levels"])
def test_every_figure_scales_to_its_container_and_names_itself(name):
    root = figures()[name]
    assert root.get("viewBox") and root.get("width") is None and root.get("height") is None  # CSS sizes it
    assert root.get("role") == "img" and root.get("aria-label")
    assert root.find("title").text == root.get("aria-label")


@pytest.mark.parametrize("name", ["exceedance", "failures", "tokens", "levels"])
def test_text_is_at_least_13px_when_the_figure_is_drawn_at_desktop_width(name):
    root = figures()[name]
    sizes = [float(t.get("font-size")) for t in root.iter("text")]
    assert sizes and min(sizes) * MIN_DESKTOP_SCALE >= 13


@pytest.mark.parametrize("name", ["exceedance", "failures", "tokens", "levels"])
def test_no_label_is_clipped_by_the_figures_edges(name):
    """Every text, at its estimated width and its anchor, lies inside the viewBox (rotated titles: their height)."""
    root = figures()[name]
    width, height = view_box(root)
    for t in root.iter("text"):
        x, y, size = float(t.get("x")), float(t.get("y")), float(t.get("font-size"))
        length = len("".join(t.itertext())) * size * CHAR_WIDTH
        if t.get("transform"):  # turned along the y axis: the text runs up from y + length / 2
            assert size * 0.2 <= x and y - length / 2 >= 0 and y + length / 2 <= height
            continue
        start = {"start": x, "middle": x - length / 2, "end": x - length}[t.get("text-anchor")]
        assert start >= 0 and start + length <= width, "".join(t.itertext())
        assert y - size >= 0 and y + size * 0.3 <= height, "".join(t.itertext())


@pytest.mark.parametrize("name", ["exceedance", "failures", "tokens", "levels"])
def test_same_input_gives_the_same_bytes(name):
    assert ET.tostring(figures()[name]) == ET.tostring(figures()[name])


def test_exceedance_bytes_do_not_depend_on_the_order_series_are_given_in():
    backwards = dict(reversed(list(SPREAD.items())))
    assert exceedance_svg("IG", backwards, order=ORDER) == exceedance_svg("IG", SPREAD, order=ORDER)


def test_labels_are_escaped_in_the_svg():
    svg = str(failures_svg([{"tool": "<b>x</b>", "calls": 1, "failed": 1, "kinds": {"other": 1}}], ["other"]))
    assert "<b>" not in svg and "&lt;b&gt;x&lt;/b&gt;" in svg


# ------------------------------------------------------------------ pass rate per level


def level_bars(root: ET.Element) -> dict[tuple[str, str], tuple[float, float, float]]:
    """{(run, level): (value, bar x, bar height)} read from the bars' titles and rectangles."""
    out = {}
    for g in root.iter("g"):
        if g.get("class") != "level-bar":
            continue
        rect = g.find("rect")
        run = rect.find("title").text.rsplit(", ", 1)[0]
        out[(run, g.get("data-level"))] = (float(g.get("data-value")), float(rect.get("x")), float(rect.get("height")))
    return out


def test_level_bars_are_as_tall_as_their_pass_rate_in_legend_order_and_na_where_a_level_has_no_case():
    root = parse(levels_svg(LEVEL_SERIES, levels=("L0", "L1", "L2")))
    bars = level_bars(root)
    assert len(bars) == 6 * 3 - 5  # five runs have no L2 case
    full = bars[("gpt-<5>", "L0")][2]
    for (_, _), (value, _, height) in bars.items():
        assert height == pytest.approx(full * value / 100, abs=0.15)
    assert texts(root).count("n/a") == 5
    names = [name for name, _ in LEVEL_SERIES]
    for level in ("L0", "L1"):  # in every group the bars stand in the legend's order, left to right
        xs = [bars[(name, level)][1] for name in names]
        assert xs == sorted(xs)
    assert [e.find("title").text for e in legend_entries(root)] == names
    assert "gpt-&lt;5&gt;" in str(levels_svg(LEVEL_SERIES, levels=("L0",)))  # names are escaped


def test_no_two_value_labels_overlap_however_many_runs():
    root = parse(levels_svg(LEVEL_SERIES, levels=("L0", "L1", "L2")))
    spans = sorted(
        (float(t.get("x")) - len(t.text) * float(t.get("font-size")) * CHAR_WIDTH / 2, float(t.get("y")), t.text)
        for g in root.iter("g")
        if g.get("class") == "level-bar"
        for t in g.iter("text")
    )
    for (x1, y1, label), (x2, y2, _) in zip(spans, spans[1:]):
        assert x1 + len(label) * 16 * CHAR_WIDTH <= x2 + 0.1 or abs(y1 - y2) >= 16, (label, x1, x2)


def test_level_bars_refuse_more_runs_than_they_have_colours():
    with pytest.raises(ValueError, match="between 1 and 6 series can be drawn; got 7"):
        levels_svg([*LEVEL_SERIES, ("one more", {})], levels=("L0",))


# ------------------------------------------------------------------ figure 5


def test_exceedance_panel_has_axis_titles_with_units_and_tick_labels():
    root = parse(exceedance_svg("TE", SPREAD, order=ORDER))
    assert texts(root, "axis-title") == ["TE score x (%)", "cases scoring ≥ x"]
    assert texts(root, "tick") == ["0", "25", "50", "75", "100", "0%", "25%", "50%", "75%", "100%"]


def test_exceedance_legend_names_every_series_with_its_cases():
    root = parse(exceedance_svg("RP", SPREAD, order=ORDER))
    assert [texts(g)[0] for g in legend_entries(root)] == [
        "All (n=6)",
        "Routing (n=3)",
        "Trip Design (n=3)",
    ]


def test_each_series_has_its_own_dash_pattern_and_marker_shape_in_the_curves_and_the_legend():
    root = parse(exceedance_svg("RP", ALL_PERFECT, order=ORDER))
    curves = [p for p in root.iter("path") if "curve" in p.get("class")]
    assert len(curves) == 5
    assert len({p.get("stroke-dasharray") for p in curves}) == 5
    assert len({shape for _, shape in STYLES[:5]}) == 5
    samples = [next(e for e in g if e.tag == "line") for g in legend_entries(root)]
    assert [s.get("stroke-dasharray") for s in samples] == [p.get("stroke-dasharray") for p in curves]
    marker_tags = [next(e for e in g if "marker" in (e.get("class") or "")) for g in legend_entries(root)]
    assert [m.tag for m in marker_tags] == ["circle", "path", "path", "path", "path"]
    assert len({m.get("d") and m.get("d").count("L") for m in marker_tags[1:]} | {"circle"}) >= 3


def test_all_is_drawn_first_and_widest_so_the_categories_show_on_top_of_it():
    root = parse(exceedance_svg("RP", SPREAD, order=ORDER))
    curves = [p for p in root.iter("path") if "curve" in p.get("class")]
    assert "series-0" in curves[0].get("class")
    assert float(curves[0].get("stroke-width")) > max(float(p.get("stroke-width")) for p in curves[1:])


def test_coinciding_curves_are_drawn_apart_and_the_legend_says_which_they_repeat():
    """In RP and TE every series often sits on 100%: each curve must still be its own line."""
    root = parse(exceedance_svg("RP", ALL_PERFECT, order=ORDER))
    curves = [p for p in root.iter("path") if "curve" in p.get("class")]
    assert len({p.get("d") for p in curves}) == 5
    legend = [texts(g)[0] for g in legend_entries(root)]
    assert legend[0] == "All (n=20)"
    assert legend[1:] == [f"{label} (n=5): same as All" for label in ORDER[1:]]
    assert "same curve as All" in root.get("aria-label")
    at_zero = [c for c in marker_centres(root) if 60 < c[0] < 110]  # x = 0 is at 70, 25 at 153; the legend at 32
    assert len(at_zero) == 5 and len({x for x, _ in at_zero}) == 5  # markers at the same point move aside
    # the first of the group stays on the true line: y of 100% is the plot's top
    assert curves[0].get("d").startswith("M70.0,18.0 ")


def test_curves_that_differ_are_drawn_exactly():
    root = parse(exceedance_svg("IG", SPREAD, order=ORDER))
    curves = [p.get("d") for p in root.iter("path") if "curve" in p.get("class")]
    assert all(d.startswith("M70.0,18.0 ") for d in curves)  # (0, 100%) for each, no offset
    assert not any("same as" in t for t in texts(root))


def test_exceedance_maths():
    values = [0.0, 0.5, 0.5, 1.0]
    assert [exceedance(values, x) for x in (0, 0.25, 0.5, 0.75, 1)] == [100, 75, 75, 25, 25]
    assert exceedance_steps(values) == [(0.0, 100.0), (0.0, 100.0), (0.0, 75.0), (0.5, 75.0), (0.5, 25.0), (1.0, 25.0)]
    assert exceedance_steps([0.2]) == [(0.0, 100.0), (0.2, 100.0), (0.2, 0.0), (1.0, 0.0)]


# ------------------------------------------------------------------ scales


def test_a_log_scale_when_values_span_two_orders_of_magnitude_and_linear_otherwise():
    assert spans_orders([1, 100]) and not spans_orders([2, 100]) and not spans_orders([0, 0])
    log = count_scale([1, 3, 150])
    assert log.log and log.low == 0.5 and log.high == 1000 and log.ticks() == [1, 10, 100, 1000]
    linear = count_scale([3, 150])
    assert not linear.log and linear.low == 0 and linear.high == 150
    assert not count_scale([1, 150], allow_log=False).log


# ------------------------------------------------------------------ tokens


def test_tokens_use_log_spaced_bins_when_values_span_an_order_of_magnitude_and_round_bins_otherwise():
    wide = token_bins([2_000, 30_000, 400_000])
    assert wide.log and wide.edges[0] <= 2_000 and wide.edges[-1] >= 400_000
    ratios = {round(b / a, 6) for a, b in zip(wide.edges, wide.edges[1:])}
    assert len(ratios) == 1  # equal steps on a log axis
    narrow = token_bins([900, 950, 1_000])
    assert not narrow.log and narrow.edges == tuple(float(v) for v in range(900, 1_001, 10))


def test_a_few_long_cases_do_not_squash_the_rest_into_one_bar():
    rng = random.Random(7)
    values = [int(20_000 * rng.lognormvariate(0, 0.3)) for _ in range(196)] + [300_000, 350_000, 400_000, 420_000]
    _, rows = token_histogram(values, [])
    assert max(r["passed"] for r in rows) < len(values) / 2
    assert sum(1 for r in rows if r["passed"]) >= 6


def test_zero_token_cases_get_their_own_bar():
    bins, rows = token_histogram([0, 0, 5_000], [20_000])
    assert bins.zeros and rows[0] == {"low": 0, "high": 0, "passed": 2, "failed": 0}
    assert sum(r["passed"] + r["failed"] for r in rows) == 4


def test_tokens_axes_say_what_they_show_and_which_scale():
    wide = parse(tokens_svg([1_000] * 200 + [20_000], [400_000]))
    assert texts(wide, "axis-title") == ["cases (log scale)", "tokens per case, input + output (log scale)"]
    assert {"1", "10", "100"} <= set(texts(wide, "tick")) and "1k" in texts(wide, "tick")
    narrow = parse(tokens_svg([900] * 8, [950] * 14))
    assert texts(narrow, "axis-title") == ["cases", "tokens per case, input + output"]
    assert [texts(g)[0] for g in legend_entries(narrow)] == ["passed (8 cases)", "failed (14 cases)"]
    bars = {r.get("class") for r in narrow.iter("rect") if "bar" in r.get("class")}
    assert bars == {"bar bar-passed", "bar bar-failed"}  # filled and outlined, told apart without colour


# ------------------------------------------------------------------ figure 6


def test_figure6_has_an_x_scale_and_a_legend_entry_per_kind():
    root = figures()["failures"]
    assert texts(root, "axis-title") == ["failed calls (count)"]
    assert texts(root, "tick")[-6:] == ["0", "2.5k", "5k", "7.5k", "10k", "12.5k"]
    assert [texts(g)[0] for g in legend_entries(root)] == ["invalid_parameter", "not_found"]
    assert {"40 of 400 calls", "12,345 of 123,456 calls"} <= set(texts(root))


LABELLED_STEPS = [
    {  # worked, list cut to its limit: a success
        "tool": "place_search",
        "arguments": {"query_name": "cafe"},
        "observation": {"places": [{"place_id": "N1"}], "truncated": True, "total_matched": 80},
        "error_kind": "truncated",
    },
    {  # worked, nothing matched: a success
        "tool": "place_search",
        "arguments": {"query_name": "zzz"},
        "observation": {"places": [], "total_matched": 0},
        "error_kind": "empty_result",
    },
    {  # no route connects the places: an error of kind empty_result, a failure
        "tool": "routing",
        "arguments": {"start": "N1", "end": "N2"},
        "observation": {"error": {"kind": "empty_result", "message": "no walk route"}},
        "error_kind": "empty_result",
    },
    {  # an invalid parameter is a failure, whatever was stored with it
        "tool": "routing",
        "arguments": {"vehicle": "boat"},
        "observation": None,
        "error_kind": "invalid_parameter",
    },
    {"tool": "submit_answer", "arguments": {"result": {}}, "observation": {"result": {}}},
]


@pytest.mark.django_db
def test_a_truncated_or_empty_call_that_worked_counts_as_a_success_not_a_failure(client):
    run = run_with_results(
        release_with_cases("plots-labels", cells=[("routing", "L1")], per_cell=2), name="labels", steps=LABELLED_STEPS
    )
    data = tool_failures(run=run)
    assert data["kinds"] == ["invalid_parameter", "empty_result"] and data["labels"] == ["empty_result", "truncated"]
    rows = {r["tool"]: r for r in data["rows"]}
    assert rows["place_search"] == {
        "tool": "place_search",
        "calls": 4,
        "failed": 0,
        "kinds": {"invalid_parameter": 0, "empty_result": 0},
        "labelled": {"empty_result": 2, "truncated": 2},
    }
    assert rows["routing"]["failed"] == 4 and rows["routing"]["kinds"] == {"invalid_parameter": 2, "empty_result": 2}
    html = client.get(f"/runs/{run.id}/").content.decode()
    figure = html[html.index('<svg class="plot plot-failures"') : html.index("</svg>", html.index("plot-failures"))]
    assert "place_search: " not in figure and "0 of 4 calls" in figure and "4 of 4 calls" in figure
    assert "worked, labelled truncated" in html


@pytest.mark.django_db
def test_the_run_page_draws_table_3s_pass_rate_row_as_bars_beside_it(client):
    release = release_with_cases("level-bars-v1")  # one case per cell: L0 and L1 four each, L2 three
    run = run_with_results(release, name="halves", results=[(True, passing_scores()), (False, failing_scores())])
    html = client.get(f"/runs/{run.id}/").content.decode()
    table3 = run.aggregates["table3"]
    figure = html.split('<figure class="level-bars">', 1)[1].split("</figure>", 1)[0]
    drawn = dict(re.findall(r'data-level="(L\d)" data-value="([\d.]+)"', figure))
    assert drawn == {level: f"{table3[level]['PR']:.1f}" for level in ("L0", "L1", "L2")}
    assert html.index('<table class="board table3">') < html.index('<figure class="level-bars">')
