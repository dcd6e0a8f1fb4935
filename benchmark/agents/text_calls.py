"""Tool calls written as text: what a model's reply holds when its server did not turn a call into ``tool_calls``.

One detector for the scaffold (which records such a reply, never runs it, and ends the case
``tool_call_as_text``) and for the smoke test of a submission (which tells the submitter to enable their
server's tool-call parser).
"""

from __future__ import annotations

import re
from collections.abc import Collection

_CALL_MARKERS = re.compile(
    r"<\|?(tool_call|tool_calls|function_call|function_calls|python_tag)\|?>|<function=|"
    r"\[TOOL_CALLS\]|<invoke\b|<\|tool_call_begin\|>|\bfunctions\.\w+\s*:",
    re.IGNORECASE,
)
_JSON_NAME = re.compile(r'"(?:name|function|tool|tool_name)"\s*:\s*"(?P<tool>[A-Za-z_][\w.-]*)"')
_JSON_ARGS = re.compile(r'"(?:arguments|parameters|args|input)"\s*:')
# ``name(`` with arguments: not ``name()`` or ``name(result=<your_answer>)``, the scaffold's own words (figure 9 and
# its reminder), which a small model echoes back.
_REAL_ARGUMENTS = r"(?!\s*\)|\s*\w+\s*=\s*<[^<>]*>\s*\))"


def written_tool_call(text: str, tool_names: Collection[str]) -> re.Match | None:
    """Where ``text`` holds a tool call written as text, or None: a tool-call tag of a known chat format, a JSON
    object naming one of ``tool_names`` with its arguments, or ``name(`` of one of them with arguments (the
    prompt's own ``submit_answer()`` and ``submit_answer(result=<your_answer>)``, echoed, are not calls)."""
    if not text:
        return None
    marker = _CALL_MARKERS.search(text)
    if marker:
        return marker
    if _JSON_ARGS.search(text):
        named = next((m for m in _JSON_NAME.finditer(text) if m.group("tool") in tool_names), None)
        if named:
            return named
    return next(
        (m for name in tool_names if (m := re.search(rf"\b{re.escape(name)}\s*\({_REAL_ARGUMENTS}", text))), None
    )


def looks_like_tool_call(text: str, tool_names: Collection[str]) -> bool:
    """Whether a model's text holds a tool call its server left unparsed."""
    return written_tool_call(text, tool_names) is not None
