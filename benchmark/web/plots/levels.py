"""Pass rate per level as grouped bars: a group per level (L0, L1, L2), a bar per run in each group.

The run page draws one run beside its table 3; a release's plots page draws the listed runs side by
side, so the fall from L0 to L2 (the paper's main finding) reads at a glance. The y scale is the pass
rate, 0 to 100 %. Each bar carries its value above it, so the figure reads without its grid and a bar
at 0 still shows its number; a level a run has no case of is written "n/a" instead of a bar. Runs are
told apart by colour (``series-N``) and by place: in every group the bars stand in the legend's order,
and each bar's title names its run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from .svg import CHAR_WIDTH, FONT, Box, bar_legend, frame, n, text, x_axis, y_axis

WIDTH = 560  # at least; wider when the bars need it
ONE_RUN_WIDTH = 400  # one run's figure, drawn beside table 3: on a 390 px phone its text stays 14 px
LEFT, RIGHT = 64, 12
GAP = 16  # between groups
MIN_BAR = 34  # a bar as wide as "100" in FONT, so no two value labels overlap
MAX_SERIES = 6  # the colours board.css has (series-1 to 6); more bars a group no longer read


def levels_svg(series: Sequence[tuple[str, Mapping[str, float | None]]], *, levels: Sequence[str]) -> SafeString:
    """The figure. ``series``: [(name, {level: PR in % or None})], in legend order (at most MAX_SERIES);
    ``levels``: the groups, left to right.

    Raises:
        ValueError: no series, or more than MAX_SERIES.
    """
    if not series or len(series) > MAX_SERIES:
        raise ValueError(f"between 1 and {MAX_SERIES} series can be drawn; got {len(series)}")
    least = WIDTH if len(series) > 1 else ONE_RUN_WIDTH
    width = max(least, LEFT + RIGHT + len(levels) * (GAP + MIN_BAR * len(series)))
    legend, legend_height = (
        bar_legend([name for name, _ in series], width, most=220) if len(series) > 1 else (mark_safe(""), 0.0)
    )
    box = Box(left=LEFT, top=legend_height + 26, right=width - RIGHT, bottom=legend_height + 26 + 220)
    group = (box.right - box.left) / len(levels)
    bar = min(56.0, (group - GAP) / len(series))
    parts: list[str] = [legend, y_axis(box, [(t / 100, str(t)) for t in range(0, 101, 20)], "PR@0.9 (%)")]
    for g, level in enumerate(levels):
        first = box.left + g * group + (group - bar * len(series)) / 2
        for s, (name, values) in enumerate(series):
            parts.append(_bar(box, first + s * bar, bar, s, name, level, values.get(level)))
    body = mark_safe("".join(parts)) + x_axis(
        box, [((g + 0.5) / len(levels), lv) for g, lv in enumerate(levels)], "level"
    )
    height = int(box.bottom + 12 + 2 * 17 + 14)
    return frame(int(width), height, name="levels", summary=_summary(series, levels), body=body)


def _bar(box: Box, x: float, width: float, index: int, name: str, level: str, value: float | None) -> str:
    middle = x + width / 2
    if value is None:
        return text(middle, box.bottom - 6, "n/a")
    top = box.y(max(0.0, min(value, 100.0)) / 100)
    label = f"{value:.1f}"
    if len(label) * FONT * CHAR_WIDTH > width:  # a narrow bar: whole numbers, so labels never overlap
        label = f"{value:.0f}"
    return format_html(
        '<g class="level-bar" data-level="{}" data-value="{}"><rect class="bar series-{}" x="{}" y="{}" width="{}"'
        ' height="{}"><title>{}, {}: {} %</title></rect>{}</g>',
        level,
        f"{value:.1f}",
        index + 1,
        n(x + 1),
        n(top),
        n(max(width - 2, 1)),
        n(box.bottom - top),
        name,
        level,
        f"{value:.1f}",
        text(middle, top - 5, label),
    )


def _summary(series: Sequence[tuple[str, Mapping[str, float | None]]], levels: Sequence[str]) -> str:
    said = "; ".join(
        f"{name}: "
        + ", ".join(f"{lv} {'n/a' if values.get(lv) is None else format(values[lv], '.1f')}" for lv in levels)
        for name, values in series
    )
    return f"Pass rate (PR@0.9, %) per level, a bar per run: {said}."
