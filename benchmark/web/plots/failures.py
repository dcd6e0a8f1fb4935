"""Figure 6: per tool, a bar of its failed calls stacked by error kind, on a linear x scale of calls.

Only failed calls are drawn: a call that worked but was labelled ``truncated`` or ``empty_result``
is a success (``benchmark.web.runs.report.tool_failures`` counts it apart). The scale stays linear
even when counts span orders of magnitude, because the segments of a stacked bar must add up;
each bar ends in its numbers ("7 of 120 calls"), so short bars still read.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from .svg import CHAR_WIDTH, FONT, Box, Scale, bar_legend, count_scale, count_text, fits, frame, n, text, x_axis

WIDTH, ROW, BAR = 720, 30, 20


def failures_svg(rows: Sequence[dict], kinds: Sequence[str]) -> SafeString:
    """Figure 6. ``rows``: [{"tool", "calls", "failed", "kinds": {kind: failed calls}}]; ``kinds``: stacking order."""
    label_width = min(max((len(r["tool"]) for r in rows), default=4) * FONT * CHAR_WIDTH + 12, 230)
    legend, legend_height = bar_legend(kinds, WIDTH)
    top = legend_height + 10
    numbers = max((len(_numbers(r)) for r in rows), default=0) * FONT * CHAR_WIDTH + 12  # room for them right of a bar
    box = Box(left=label_width + 8, top=top, right=WIDTH - numbers, bottom=top + ROW * max(len(rows), 1))
    scale = count_scale([r["failed"] for r in rows], allow_log=False)  # stacked segments must add up
    parts = [_row(box, scale, i, row, kinds, label_width) for i, row in enumerate(rows)]
    ticks = [(scale.fraction(t), count_text(t)) for t in scale.ticks() if t == int(t)]
    body = legend + mark_safe("".join(parts)) + x_axis(box, ticks, "failed calls (count)")
    height = int(box.bottom + 12 + 2 * FONT + 20)
    return frame(WIDTH, height, name="failures", summary=_summary(rows, kinds), body=body)


def _row(box: Box, scale: Scale, i: int, row: dict, kinds: Sequence[str], label_width: float) -> str:
    y = box.top + i * ROW + (ROW - BAR) / 2
    parts = [
        format_html(
            "<g>{}<title>{}</title></g>",
            text(label_width, y + BAR / 2 + FONT * 0.35, fits(row["tool"], label_width), anchor="end"),
            row["tool"],
        )
    ]
    x = box.left
    for index, kind in enumerate(kinds):
        count = row["kinds"].get(kind, 0)
        if count:
            width = scale.fraction(count) * (box.right - box.left)
            parts.append(
                format_html(
                    '<rect class="bar series-{}" x="{}" y="{}" width="{}" height="{}"><title>{}: {} {}</title></rect>',
                    index + 1,
                    n(x),
                    n(y),
                    n(width),
                    BAR,
                    row["tool"],
                    count,
                    kind,
                )
            )
            x += width
    parts.append(text(x + 6, y + BAR / 2 + FONT * 0.35, _numbers(row), anchor="start"))
    return "".join(parts)


def _numbers(row: dict) -> str:
    return f"{row['failed']:,} of {row['calls']:,} calls"


def _summary(rows: Sequence[dict], kinds: Sequence[str]) -> str:
    worst = sorted(rows, key=lambda r: (-r["failed"], r["tool"]))[:3]
    said = "; ".join(f"{r['tool']} {r['failed']} of {r['calls']} calls" for r in worst if r["failed"])
    return (
        f"Tool-call failures by kind ({', '.join(kinds)}), per tool, as counts of failed calls. "
        f"Most failures: {said or 'none'}."
    )
