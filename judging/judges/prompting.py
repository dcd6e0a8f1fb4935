"""Prompt templates and how untrusted data goes into them.

A template file ``judging/prompts/<role>.v<N>.txt`` holds a ``=== system ===`` and a
``=== user ===`` section with ``$placeholders`` (:class:`string.Template`; substituted
values are never re-read as template text). Its file stem (``semantic_constraint.v1``) is
the prompt version recorded with every verdict: change a prompt by adding a new version.

Everything an agent, a tool or an uploader wrote reaches a judge only as JSON text that is
pure printable ASCII without ``<`` or ``>`` (:func:`encode_untrusted`), between boundary
markers made of ``<<<`` and ``>>>`` (:func:`untrusted_block`): no content can produce a
marker, however it is spelled.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

PROMPTS_DIR = Path(__file__).resolve().parent.parent / "prompts"
SECTION = re.compile(r"^=== (system|user) ===\s*$", re.MULTILINE)
OBSERVATION_CHARS = 2_000  # per tool observation in the RP prompt (of its JSON text)
STEP_TEXT_CHARS = 1_000  # per turn of the agent's own text
ARGUMENT_CHARS = 500  # per argument list
TOOL_NAME_CHARS = 100
TRAJECTORY_CHARS = 40_000  # the whole trajectory block
# How untrusted data is written into a prompt. Part of the cache key: the template version alone
# no longer says what a judge saw.
RENDERING = "json-ascii.1"
# Printable ASCII but "<" and ">", and newlines: everything else inside a block is written as a \u escape (\u00e9).
_NOT_BLOCK_SAFE = re.compile(r"[^\n\x20-\x3b=\x3f-\x7e]")


@cache
def load_template(filename: str) -> tuple[Template, Template]:
    """(system, user) templates of a prompt file under judging/prompts/."""
    text = (PROMPTS_DIR / filename).read_text(encoding="utf-8")
    parts = SECTION.split(text)
    sections = dict(zip(parts[1::2], parts[2::2]))
    if set(sections) != {"system", "user"}:
        raise ValueError(f"{filename}: needs exactly a '=== system ===' and a '=== user ===' section")
    return Template(sections["system"].strip()), Template(sections["user"].strip())


def canonical_json(value: Any) -> str:
    """Stable JSON (sorted keys, no spaces) for hashing."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def content_hash(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()


def encode_untrusted(value: Any, *, indent: int | None = None) -> str:
    """Untrusted data as the judge reads it: JSON, printable ASCII only, ``<`` and ``>`` escaped.

    ``json.loads`` gives the value back exactly, so the judge sees every character that was
    written (zero-width and look-alike characters show as ``\\u`` escapes such as ``\\u200b``), yet the text holds no
    angle bracket and no raw newline inside a string, so it can form no boundary marker.
    """
    text = json.dumps(value, ensure_ascii=True, indent=indent, default=str)
    return text.replace("<", "\\u003c").replace(">", "\\u003e")


def untrusted_block(encoded: str) -> tuple[str, str]:
    """(nonce, ``encoded`` between boundary markers) for data the judge must read as data only.

    ``encoded`` should come from :func:`encode_untrusted` (or be built from its pieces); any
    character outside printable ASCII, and every ``<`` and ``>``, is escaped here as well, so
    the guarantee does not rest on the caller. The nonce comes from the text's hash:
    random-looking, and deterministic, so the same answer gives the same prompt.
    """
    safe = _NOT_BLOCK_SAFE.sub(lambda m: _escape(m.group(0)), encoded)
    nonce = hashlib.sha256(safe.encode()).hexdigest()[:16]
    return nonce, f"<<<UNTRUSTED-{nonce}>>>\n{safe}\n<<<END-UNTRUSTED-{nonce}>>>"


def _escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # a UTF-16 surrogate pair, as JSON writes it
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def show(value: Any) -> str:
    """A trusted value as the judge reads it: strings as they are, anything else as indented JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=1, default=str)


def clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]} ... [truncated, {len(text) - limit} more characters]"


def trajectory_text(steps: list, *, budget: int = TRAJECTORY_CHARS) -> str:
    """The tool calls with their observations, each observation clipped to OBSERVATION_CHARS
    (less when many steps would overrun ``budget``); if still too long, middle steps go."""
    if not steps:
        return "(no tool calls)"
    per_observation = max(300, min(OBSERVATION_CHARS, budget // len(steps) - 300))
    blocks = [_step_text(step, per_observation) for step in steps]
    kept = blocks
    for keep in range(len(blocks), 1, -1):
        head, tail = (keep + 1) // 2, keep // 2
        omitted = len(blocks) - keep
        kept = (
            blocks
            if not omitted
            else [*blocks[:head], f"[... {omitted} steps omitted to fit the prompt ...]", *blocks[len(blocks) - tail :]]
        )
        if sum(map(len, kept)) <= budget:
            break
    return "\n\n".join(kept)


def _step_text(step, observation_chars: int) -> str:
    """One step on lines of its own; each untrusted piece is one line of encoded JSON."""
    lines = [
        f"Step {int(step.index)}: tool {clip(encode_untrusted(step.tool), TOOL_NAME_CHARS)}, arguments "
        f"{clip(encode_untrusted(step.arguments), ARGUMENT_CHARS)}"
    ]
    if step.text:
        lines.append(f"Agent's text: {clip(encode_untrusted(step.text), STEP_TEXT_CHARS)}")
    lines.append(f"Observation: {clip(encode_untrusted(step.observation), observation_chars)}")
    return "\n".join(lines)
