"""Shared pieces of the benchmark admin: escaped, readable HTML for documents."""

from __future__ import annotations

import json

from django.utils.html import format_html, format_html_join

from benchmark.cases.document import canonical_json


def pretty_json(value) -> str:
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True))


def tool_path_html(steps) -> str:
    """A numbered list of tool calls: ``1. place_search {"query_name": ...}``."""
    if not steps:
        return "-"
    rows = ((s.get("tool", "?"), canonical_json(s.get("arguments", {}))) for s in steps)
    return format_html("<ol>{}</ol>", format_html_join("", "<li>{} <code>{}</code></li>", rows))
