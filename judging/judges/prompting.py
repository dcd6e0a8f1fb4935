"""Prompt templates and how untrusted text goes into them.

A template file ``judging/prompts/<role>.v<N>.txt`` holds a ``=== system ===`` and a
``=== user ===`` section with ``$placeholders`` (:class:`string.Template`; substituted
values are never re-read as template text). Its file stem (``semantic_constraint.v1``) is
the prompt version recorded with every verdict: change a prompt by adding a new version.
"""
from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from pathlib import Path
from string import Template
from typing import Any

PROMPTS_DIR = Path(__file__).resolve().parent.parent / "prompts"
SECTION = re.compile(r"^=== (system|user) ===\s*$", re.MULTILINE)
OBSERVATION_CHARS = 2_000  # per tool observation in the RP prompt
STEP_TEXT_CHARS = 1_000  # per turn of the agent's own text
TRAJECTORY_CHARS = 40_000  # the whole trajectory block
ANGLE_RUNS = re.compile(r"[<＜﹤]{3,}|[>＞﹥]{3,}")


@lru_cache(maxsize=None)
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


def untrusted_block(text: str) -> tuple[str, str]:
    """(nonce, text between boundary markers) for text the judge must read as data only.

    The nonce comes from the text's hash: random-looking, so the text cannot guess it in
    advance, and deterministic, so the same answer gives the same prompt (and cache key).
    Runs of three or more angle brackets inside are escaped, so no marker can be forged.
    """
    escaped = ANGLE_RUNS.sub(lambda m: "".join("&lt;" if ch in "<＜﹤" else "&gt;" for ch in m.group(0)), text)
    nonce = hashlib.sha256(escaped.encode()).hexdigest()[:16]
    return nonce, f"<<<UNTRUSTED-{nonce}>>>\n{escaped}\n<<<END-UNTRUSTED-{nonce}>>>"


def show(value: Any) -> str:
    """A value as the judge reads it: strings as they are, anything else as indented JSON."""
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
        kept = blocks if not omitted else [
            *blocks[:head], f"[... {omitted} steps omitted to fit the prompt ...]", *blocks[len(blocks) - tail:]]
        if sum(map(len, kept)) <= budget:
            break
    return "\n\n".join(kept)


def _step_text(step, observation_chars: int) -> str:
    lines = [f"Step {step.index}: {step.tool}({clip(show(step.arguments), 500)})"]
    if step.text:
        lines.append(f"Agent's text: {clip(step.text, STEP_TEXT_CHARS)}")
    lines.append(f"Observation: {clip(show(step.observation), observation_chars)}")
    return "\n".join(lines)
