"""Plots drawn on the server as inline SVG (no JavaScript, no CDN): the paper's figure 5
(exceedance curves), figure 6 (tool-call failures by kind) and a histogram of tokens per case.

Functions take plain numbers and labels and return safe markup; every label is escaped.
Colours come from CSS classes (``series-0`` ...) in static/css/board.css.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 44, 12, 22, 34


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
    n = len(ordered)
    points = [(0.0, 100.0)]
    for v in sorted(set(ordered)):
        points.append((v, 100.0 * (n - bisect_left(ordered, v)) / n))
        if v < 1.0:  # at x = 1 the curve ends at the share of perfect scores
            points.append((v, 100.0 * (n - bisect_right(ordered, v)) / n))
    if points[-1][0] < 1.0:
        points.append((1.0, points[-1][1]))
    return points


def _frame(width: int, height: int, label: str, body: SafeString) -> SafeString:
    return format_html(
        '<svg class="plot" viewBox="0 0 {} {}" width="{}" height="{}" role="img" aria-label="{}">'
        "<title>{}</title>{}</svg>",
        width,
        height,
        width,
        height,
        label,
        label,
        body,
    )


def _axes(
    width: int,
    height: int,
    *,
    x_ticks: list[tuple[float, str]],
    y_ticks: list[tuple[float, str]],
    x_label: str,
    y_label: str,
) -> SafeString:
    """Axes with ticks; tick positions are fractions (0..1) of the plot area."""
    left, right, top, bottom = PAD_LEFT, width - PAD_RIGHT, PAD_TOP, height - PAD_BOTTOM
    parts = [
        format_html('<line class="axis" x1="{}" y1="{}" x2="{}" y2="{}"/>', left, bottom, right, bottom),
        format_html('<line class="axis" x1="{}" y1="{}" x2="{}" y2="{}"/>', left, top, left, bottom),
    ]
    for fraction, text in x_ticks:
        x = left + fraction * (right - left)
        parts.append(
            format_html('<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>', _n(x), bottom + 14, text)
        )
    for fraction, text in y_ticks:
        y = bottom - fraction * (bottom - top)
        parts.append(format_html('<line class="grid" x1="{}" y1="{}" x2="{}" y2="{}"/>', left, _n(y), right, _n(y)))
        parts.append(
            format_html('<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>', left - 4, _n(y + 4), text)
        )
    parts.append(
        format_html(
            '<text class="axis-label" x="{}" y="{}" text-anchor="middle">{}</text>',
            _n((left + right) / 2),
            height - 4,
            x_label,
        )
    )
    parts.append(format_html('<text class="axis-label" x="{}" y="{}">{}</text>', 2, 12, y_label))
    return mark_safe("".join(parts))


def _n(value: float) -> str:
    return f"{value:.1f}"


EXCEEDANCE_AT = (0.25, 0.5, 0.75, 1.0)


def exceedance_table(series: Mapping[str, Sequence[float]]) -> list[dict]:
    """Figure 5 as numbers: per series, its cases and the share (%) scoring >= each of EXCEEDANCE_AT."""
    return [
        {"label": label, "n": len(values), "shares": [round(exceedance(values, x), 1) for x in EXCEEDANCE_AT]}
        for label, values in series.items()
    ]


def exceedance_svg(
    metric: str, series: Mapping[str, Sequence[float]], *, order: Sequence[str], width: int = 300, height: int = 220
) -> SafeString:
    """One panel of figure 5: an exceedance curve per series (e.g. per task category).

    ``order`` lists every possible series label: a label's position picks its colour, so a
    series keeps its colour in every panel and in the legend.
    """
    left, right, top, bottom = PAD_LEFT, width - PAD_RIGHT, PAD_TOP, height - PAD_BOTTOM
    ticks = [(f, f"{int(f * 100)}") for f in (0, 0.25, 0.5, 0.75, 1)]
    lines = []
    for label, values in series.items():
        index = order.index(label)
        corners = exceedance_steps(values)
        d = " ".join(
            f"{'M' if i == 0 else 'L'}{_n(left + x * (right - left))},{_n(bottom - y / 100 * (bottom - top))}"
            for i, (x, y) in enumerate(corners)
        )
        lines.append(
            format_html(
                '<path class="curve series-{}" d="{}"><title>{}: {} cases</title></path>', index, d, label, len(values)
            )
        )
    body = _axes(
        width,
        height,
        x_ticks=ticks,
        y_ticks=[(f, f"{int(f * 100)}%") for f in (0, 0.5, 1)],
        x_label=f"{metric} score ≥ x (%)",
        y_label="cases",
    ) + mark_safe("".join(lines))
    return _frame(width, height, f"Exceedance curves of {metric}", body)


def legend(labels: Sequence[str], *, classes: Sequence[int] | None = None) -> SafeString:
    """An HTML legend matching the ``series-N`` classes of a plot (N = position, or ``classes``)."""
    numbers = list(classes) if classes is not None else list(range(len(labels)))
    return format_html(
        '<ul class="legend">{}</ul>',
        format_html_join("", '<li><span class="swatch series-{}"></span>{}</li>', zip(numbers, labels)),
    )


def failures_svg(rows: Sequence[dict], kinds: Sequence[str], *, width: int = 640) -> SafeString:
    """Figure 6: per tool, a bar of its failed or degraded calls stacked by error kind.

    ``rows``: [{"tool", "calls", "kinds": {kind: count}}]; ``kinds``: the kinds in stacking order.
    """
    row_height, label_width = 22, 130
    height = PAD_TOP + row_height * max(len(rows), 1) + PAD_BOTTOM
    top_count = max((sum(r["kinds"].get(k, 0) for k in kinds) for r in rows), default=0) or 1
    scale = (width - label_width - PAD_RIGHT - 90) / top_count
    parts = []
    for i, row in enumerate(rows):
        y = PAD_TOP + i * row_height
        parts.append(
            format_html(
                '<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>', label_width - 6, y + 15, row["tool"]
            )
        )
        x = float(label_width)
        for index, kind in enumerate(kinds):
            count = row["kinds"].get(kind, 0)
            if count:
                parts.append(
                    format_html(
                        '<rect class="bar series-{}" x="{}" y="{}" width="{}" height="{}">'
                        "<title>{}: {} {}</title></rect>",
                        index,
                        _n(x),
                        y + 3,
                        _n(count * scale),
                        row_height - 6,
                        row["tool"],
                        count,
                        kind,
                    )
                )
                x += count * scale
        failed = sum(row["kinds"].get(k, 0) for k in kinds)
        parts.append(
            format_html(
                '<text class="tick" x="{}" y="{}">{} of {} calls</text>', _n(x + 6), y + 15, failed, row["calls"]
            )
        )
    body = mark_safe("".join(parts)) + format_html(
        '<text class="axis-label" x="{}" y="{}">tool calls by error kind</text>', label_width, height - 8
    )
    return _frame(width, height, "Tool-call failures by kind, per tool", body)


def bin_index(value: float, *, top: float, bins: int) -> int:
    """The equal-width bin (0 .. bins-1) of ``value`` on [0, top]."""
    return min(int(value / (top / bins)), bins - 1)


def histogram(values: Sequence[int], *, bins: int = 20) -> list[dict]:
    """Equal-width bins from 0 to max(values): [{"low", "high", "count"}]; [] when every value is 0."""
    top = max(values, default=0)
    if top <= 0:
        return []
    out = [{"low": round(i * top / bins), "high": round((i + 1) * top / bins), "count": 0} for i in range(bins)]
    for v in values:
        out[bin_index(v, top=top, bins=bins)]["count"] += 1
    return out


def tokens_svg(
    passed: Sequence[int], failed: Sequence[int], *, width: int = 640, height: int = 220, bins: int = 20
) -> SafeString:
    """Tokens per case as a histogram, passed and failed cases stacked."""
    both = histogram([*passed, *failed], bins=bins)
    if not both:
        raise ValueError("no case used any token")
    top_value = max([*passed, *failed])
    stacks = []
    for values in (passed, failed):
        counts = [0] * bins
        for v in values:
            counts[bin_index(v, top=top_value, bins=bins)] += 1
        stacks.append(counts)
    tallest = max(b["count"] for b in both)
    left, right, top_y, bottom = PAD_LEFT, width - PAD_RIGHT, PAD_TOP, height - PAD_BOTTOM
    bar = (right - left) / bins
    rects = []
    for i, b in enumerate(both):
        base = bottom
        for index, counts in enumerate(stacks):
            h = counts[i] / tallest * (bottom - top_y)
            if counts[i]:
                rects.append(
                    format_html(
                        '<rect class="bar series-{}" x="{}" y="{}" width="{}" height="{}">'
                        "<title>{}-{} tokens: {} {}</title></rect>",
                        index,
                        _n(left + i * bar + 1),
                        _n(base - h),
                        _n(bar - 2),
                        _n(h),
                        b["low"],
                        b["high"],
                        counts[i],
                        ("passed", "failed")[index],
                    )
                )
            base -= h
    ticks = [(0, "0"), (0.5, f"{top_value // 2:,}"), (1, f"{top_value:,}")]
    body = _axes(
        width, height, x_ticks=ticks, y_ticks=[(0, "0"), (1, str(tallest))], x_label="tokens per case", y_label="cases"
    ) + mark_safe("".join(rects))
    return _frame(width, height, "Tokens per case", body)
