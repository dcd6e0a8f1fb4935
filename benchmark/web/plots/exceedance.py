"""Figure 5: exceedance curves, one panel per metric (RP, IG, TE), a curve per series ("All" and
each task category). A point (x, y) says y% of the series' cases scored at least x.

Series are told apart without colour: each has its own dash pattern and marker shape (markers at
x = 0, 25, 50, 75 and 100%, the values of the table under the figure). "All" is drawn first, wide,
under the others. Series whose curves are identical are drawn a few units apart (``FAN``) so each
stays visible, and the legend says which curve they repeat; markers that would sit on one another
at the same point move aside (``MARKER_STEP``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from .svg import FONT, Box, fits, frame, n, text, x_axis, y_axis

EXCEEDANCE_AT = (0.25, 0.5, 0.75, 1.0)
MARKERS_AT = (0.0, *EXCEEDANCE_AT)
# (dash pattern, marker shape) per series position in ``order``; "none" is a solid line.
STYLES = (
    ("none", "circle"),
    ("10 4", "square"),
    ("2 4", "triangle"),
    ("14 4 3 4", "diamond"),
    ("6 3 2 3 2 3", "triangle-down"),
    ("4 4", "square"),
    ("1 3", "diamond"),
)
WIDTH, FAN, MARKER_STEP = 420, 3.0, 8.0
BOX = Box(left=70, top=18, right=WIDTH - 18, bottom=258)
LEGEND_TOP, LEGEND_ROW = 338, 26


def exceedance(values: Sequence[float], x: float) -> float:
    """The share of ``values`` that are >= ``x``, in % (figure 5: a point (x, y) says y% of cases scored >= x)."""
    if not values:
        raise ValueError("no values")
    return 100.0 * sum(1 for v in values if v >= x - 1e-12) / len(values)


def exceedance_steps(values: Sequence[float]) -> list[tuple[float, float]]:
    """The corners of the exceedance curve for x from 0 to 1: [(x, y%), ...], a step at each distinct value."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(min(max(float(v), 0.0), 1.0) for v in values)
    count = len(ordered)
    points = [(0.0, 100.0)]
    for v in sorted(set(ordered)):
        points.append((v, 100.0 * (count - bisect_left(ordered, v)) / count))
        if v < 1.0:  # at x = 1 the curve ends at the share of perfect scores
            points.append((v, 100.0 * (count - bisect_right(ordered, v)) / count))
    if points[-1][0] < 1.0:
        points.append((1.0, points[-1][1]))
    return points


def exceedance_table(series: Mapping[str, Sequence[float]]) -> list[dict]:
    """Figure 5 as numbers: per series, its cases and the share (%) scoring >= each of EXCEEDANCE_AT."""
    return [
        {"label": label, "n": len(values), "shares": [round(exceedance(values, x), 1) for x in EXCEEDANCE_AT]}
        for label, values in series.items()
    ]


def coinciding(series: Mapping[str, Sequence[float]], order: Sequence[str]) -> dict[str, str]:
    """{label: the first label in ``order`` with the identical curve}, for every series that repeats one."""
    first: dict[tuple, str] = {}
    same = {}
    for label in sorted(series, key=order.index):
        curve = tuple(exceedance_steps(series[label]))
        if curve in first:
            same[label] = first[curve]
        else:
            first[curve] = label
    return same


def exceedance_svg(metric: str, series: Mapping[str, Sequence[float]], *, order: Sequence[str]) -> SafeString:
    """One panel of figure 5: axes, a curve per series and a legend naming each series.

    ``order`` lists every possible series label: a label's position picks its colour, dash pattern
    and marker, so a series looks the same in every panel.
    """
    labels = sorted(series, key=order.index)
    same = coinciding(series, order)
    offsets = _fan(labels, same)
    taken: dict[tuple[float, float], int] = {}  # markers already at a point, across the panel's curves
    curves = [_curve(series[label], order.index(label), offsets[label], label, taken) for label in labels]
    legend = [
        _legend_entry(i, order.index(label), label, len(series[label]), same.get(label))
        for i, label in enumerate(labels)
    ]
    body = (
        x_axis(BOX, [(f, f"{int(f * 100)}") for f in MARKERS_AT], f"{metric} score x (%)")
        + y_axis(BOX, [(f, f"{int(f * 100)}%") for f in MARKERS_AT], "cases scoring ≥ x")
        + mark_safe("".join(curves) + "".join(legend))
    )
    height = LEGEND_TOP + LEGEND_ROW * len(labels)
    return frame(WIDTH, height, name="exceedance", summary=_summary(metric, series, labels, same), body=body)


def _fan(labels: Sequence[str], same: Mapping[str, str]) -> dict[str, float]:
    """A vertical offset per series: 0, except curves that repeat an earlier one, drawn FAN, -FAN, 2 FAN, ...
    units from it (the first of a group stays on the true line)."""
    groups: dict[str, list[str]] = {}
    for label in labels:
        groups.setdefault(same.get(label, label), []).append(label)
    return {
        label: ((i + 1) // 2) * FAN * (1 if i % 2 else -1) for group in groups.values() for i, label in enumerate(group)
    }


def _curve(values: Sequence[float], index: int, offset: float, label: str, taken: dict) -> str:
    dash, shape = STYLES[index % len(STYLES)]
    d = " ".join(
        f"{'M' if i == 0 else 'L'}{n(BOX.x(x))},{n(BOX.y(y / 100) + offset)}"
        for i, (x, y) in enumerate(exceedance_steps(values))
    )
    width = 5 if index == 0 else 2.5  # "All" wide, under the others
    path = format_html(
        '<path class="curve series-{}" d="{}" stroke-width="{}" stroke-dasharray="{}">'
        "<title>{}: {} cases</title></path>",
        index,
        d,
        width,
        dash,
        label,
        len(values),
    )
    marks = []
    for x in MARKERS_AT:
        share = exceedance(values, x)
        crowd = taken.get((x, share), 0)  # a marker where earlier curves have one moves aside
        taken[(x, share)] = crowd + 1
        marks.append(_marker(shape, index, BOX.x(x) + _aside(x, crowd), BOX.y(share / 100) + offset))
    return path + "".join(marks)


def _aside(x: float, crowd: int) -> float:
    """How far the marker at ``x`` moves when ``crowd`` markers are there already: 8, -8, 16 ... units, inwards
    only at the ends of the axis (left of x = 0 are the tick labels)."""
    if x <= 0:
        return crowd * MARKER_STEP
    if x >= 1:
        return -crowd * MARKER_STEP
    return ((crowd + 1) // 2) * MARKER_STEP * (1 if crowd % 2 else -1)


def _marker(shape: str, index: int, x: float, y: float, size: float = 5.0) -> str:
    """A filled marker centred on (x, y); its outline is the background's colour (CSS), so stacked ones separate."""
    if shape == "circle":
        return format_html('<circle class="marker series-{}" cx="{}" cy="{}" r="{}"/>', index, n(x), n(y), n(size))
    points = {
        "square": ((-1, -1), (1, -1), (1, 1), (-1, 1)),
        "triangle": ((0, -1.25), (1.15, 0.85), (-1.15, 0.85)),
        "triangle-down": ((0, 1.25), (1.15, -0.85), (-1.15, -0.85)),
        "diamond": ((0, -1.35), (1.35, 0), (0, 1.35), (-1.35, 0)),
    }[shape]
    d = "M" + " L".join(f"{n(x + dx * size)},{n(y + dy * size)}" for dx, dy in points) + " Z"
    return format_html('<path class="marker series-{}" d="{}"/>', index, d)


def _legend_entry(row: int, index: int, label: str, cases: int, same_as: str | None) -> str:
    dash, shape = STYLES[index % len(STYLES)]
    y = LEGEND_TOP + row * LEGEND_ROW
    x0, x1 = 10, 54
    sample = format_html(
        '<line class="curve series-{}" x1="{}" y1="{}" x2="{}" y2="{}" stroke-width="{}" stroke-dasharray="{}"/>',
        index,
        n(x0),
        n(y - 5),
        n(x1),
        n(y - 5),
        5 if index == 0 else 2.5,
        dash,
    )
    words = f"{label} (n={cases})" + (f": same as {same_as}" if same_as else "")
    return format_html(
        '<g class="legend-entry">{}{}{}</g>',
        sample,
        _marker(shape, index, (x0 + x1) / 2, y - 5),
        text(x1 + 10, y, fits(words, WIDTH - x1 - 14), cls="legend", anchor="start", font=FONT),
    )


def _summary(metric: str, series: Mapping[str, Sequence[float]], labels: Sequence[str], same: Mapping[str, str]) -> str:
    """The panel in words, for screen readers: per series, its cases and the share scoring at least 50%."""
    parts = [
        f"{label}: {len(series[label])} cases, {exceedance(series[label], 0.5):.0f}% score at least 50"
        + (f" (same curve as {same[label]})" if label in same else "")
        for label in labels
    ]
    return f"Exceedance curves of {metric}: share of cases scoring at least x, x from 0 to 100%. " + "; ".join(parts)
