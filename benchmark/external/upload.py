"""Uploads: answers and trajectories produced elsewhere, scored here, marked self-reported.

The file is JSONL, one line per (case, trial) of the release::

    {"case_id": "helsinki-routing-L1-0003", "trial": 0,
     "answer": {...} | null, "ended": "submitted",
     "trajectory": [{"tool": "place_search", "arguments": {...}, "observation": {...},
                     "error_kind": "", "latency_ms": 12.5, "text": "...", "input_tokens": 0, "output_tokens": 0}],
     "input_tokens": 0, "output_tokens": 0}

``answer`` is the ``result`` given to ``submit_answer``; ``ended`` is one of
``kernel.vocabulary.Ending``; ``trial`` (default 0), the token counts and each step's
``error_kind``, ``latency_ms`` and ``text`` are optional. Every line is validated before
anything is written, its hygiene too (``kernel.inputs``: no NUL, NaN, Infinity or huge
numbers anywhere; the answer and each step's arguments within the tool-argument limits; a
step's text and every string within ``MODEL_TEXT_CHARS``, its observation within
``OBSERVATION_CHARS`` of JSON, the line within ``MAX_LINE_BYTES``), each problem named by line and
field. The file is read a line at a time, never whole. Then one run of the
``upload`` agent is created with ``verified=False`` and each trajectory is scored exactly as a
run's trajectories are.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from benchmark.agents.config import MAX_TRIALS
from benchmark.agents.toolbox import StepRecord
from benchmark.cases.models import Release, ReleaseCase
from benchmark.runs.lifecycle import trajectory_finish
from benchmark.runs.listing import listing_fields_clean
from benchmark.runs.models import EvaluationRun, Trajectory
from benchmark.runs.services import run_name_check
from kernel.inputs import OBSERVATION_CHARS, TOOL_ARGUMENTS, UPLOAD_LINE, Problem, check_json, parse_json
from kernel.vocabulary import Ending

MAX_ERRORS = 50
MAX_LINE_BYTES = 16 * 1024 * 1024  # one (case, trial): 30 steps of the largest observations is about 6 MB
MAX_COUNT = 2**31 - 1  # a token count, as stored


class UploadStep(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tool: str = Field(min_length=1, max_length=40)
    arguments: Any
    observation: Any
    error_kind: str = Field("", max_length=20)
    latency_ms: float = Field(0, ge=0)
    text: str = ""
    input_tokens: int = Field(0, ge=0, le=MAX_COUNT)
    output_tokens: int = Field(0, ge=0, le=MAX_COUNT)


class UploadLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    case_id: str
    trial: int = Field(0, ge=0, le=MAX_TRIALS - 1)
    answer: Any
    ended: Ending
    trajectory: list[UploadStep]
    input_tokens: int = Field(0, ge=0, le=MAX_COUNT)
    output_tokens: int = Field(0, ge=0, le=MAX_COUNT)


class UploadError(ValueError):
    """The file does not follow the upload format; ``errors`` names each line and field."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        more = f"\n... and {len(errors) - MAX_ERRORS} more" if len(errors) > MAX_ERRORS else ""
        super().__init__("the upload was refused:\n" + "\n".join(errors[:MAX_ERRORS]) + more)


def run_upload(
    *, release: Release, path: str | Path, name: str, created_by=None, model_name: str = "", description: str = ""
) -> EvaluationRun:
    """Validate every line of the JSONL at ``path``, then record and score it as a self-reported run.

    The file is read line by line, twice (checked whole, then written), never held in memory: one line at
    a time, of at most ``MAX_LINE_BYTES``, is. ``model_name`` (the model that answered) and ``description`` (who
    ran it and how) are what a listing on the leaderboard needs: without them the run is scored but not listed.

    Raises:
        RunNameTaken: a run of ``release`` already has ``name`` (checked before the file is read).
        UploadError: the file does not follow the upload format.
    """
    model_name, description = listing_fields_clean(model_name=model_name, description=description)
    run_name_check(release=release, name=name)
    checked = upload_check(release=release, path=path)
    now = timezone.now()
    with transaction.atomic():  # the whole upload lands, or nothing does
        run = EvaluationRun.objects.create(
            name=name,
            agent="upload",
            release=release,
            verified=False,
            model_name=model_name,
            description=description,
            status=EvaluationRun.RUNNING,
            started_at=now,
            created_by=created_by,
            config={"source": "upload", "file": Path(path).name, "trials": 1 + max(t for _, t in checked.values())},
        )
        # Every trajectory exists before the first is finished: the run completes, with its aggregates over all
        # of them, when the last one is (finishing them one by one as they are created completed it after one).
        trajectories = {
            number: Trajectory(
                run=run,
                entry=entry,
                trial=trial,
                status=Trajectory.RUNNING,
                claimed_by="upload",
                started_at=now,
                attempts=1,
            )
            for number, (entry, trial) in checked.items()
        }
        Trajectory.objects.bulk_create(trajectories.values())
        for number, raw in _lines(path):
            if number not in checked:
                continue  # blank
            assert isinstance(raw, str)  # a refused line would have stopped the upload above
            line = UploadLine.model_validate(json.loads(raw))  # checked above
            trajectory_finish(
                trajectory=trajectories[number],
                steps=_steps(line),
                final_answer=line.answer,
                ended=line.ended,
                input_tokens=line.input_tokens,
                output_tokens=line.output_tokens,
            )
    run.refresh_from_db()
    return run


def upload_check(*, release: Release, path: str | Path) -> dict[int, tuple[ReleaseCase, int]]:
    """Every line of the upload at ``path`` validated against the format and the release: line number ->
    (its case in the release, its trial) for each line that is not blank. Raises UploadError."""
    entries = {entry.snapshot["case_id"]: entry for entry in release.entries.all()}
    checked: dict[int, tuple[ReleaseCase, int]] = {}
    errors: list[str] = []
    seen: dict[tuple[str, int], int] = {}  # (case_id, trial) -> line number
    for number, raw in _lines(path):
        if isinstance(raw, _Refused):
            errors.append(raw.problem)
            continue
        if not raw.strip():
            continue
        line, problems = _parse_line(number, raw)
        errors += problems
        if line is None:
            continue
        if line.case_id not in entries:
            errors.append(f"line {number}: unknown case_id {line.case_id!r} (not in release {release.name})")
        elif (line.case_id, line.trial) in seen:
            errors.append(
                f"line {number}: case_id {line.case_id!r} trial {line.trial} is already on line "
                f"{seen[line.case_id, line.trial]}"
            )
        else:
            seen[line.case_id, line.trial] = number
            checked[number] = (entries[line.case_id], line.trial)
        if len(errors) > MAX_ERRORS:
            break  # enough to fix first; the rest is not read
    if not errors and not checked:
        errors.append("the file has no lines")
    if errors:
        raise UploadError(errors)
    return checked


class _Refused:
    """A line not even parsed: too long, or not UTF-8."""

    def __init__(self, problem: str):
        self.problem = problem


def _lines(path: str | Path) -> Iterator[tuple[int, str | _Refused]]:
    """(number, text) of each line of the file, split at "\n" only (U+2028 may be inside a string); a line
    over ``MAX_LINE_BYTES`` is skipped unread past the limit, and it and a line that is not UTF-8 are refused."""
    with open(path, "rb") as file:
        number = 0
        while raw := file.readline(MAX_LINE_BYTES + 1):
            number += 1
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                while (rest := file.readline(1 << 20)) and not rest.endswith(b"\n"):
                    pass
                yield number, _Refused(f"line {number}: longer than {MAX_LINE_BYTES:,} bytes, the most one line may be")
                continue
            try:
                yield number, raw.decode("utf-8").removesuffix("\n")
            except UnicodeDecodeError as exc:
                yield number, _Refused(f"line {number}: not UTF-8 text (at byte {exc.start + 1} of the line)")


def _parse_line(number: int, raw: str) -> tuple[UploadLine | None, list[str]]:
    data, problems = parse_json(raw, limits=UPLOAD_LINE)
    if not problems and not isinstance(data, dict):
        return None, [f"line {number}: a line must be a JSON object, got {type(data).__name__}"]
    problems = problems or _limit_problems(data)
    if problems:
        return None, [
            f"line {number}, field {p.path!r}: {p.reason}"
            if p.path
            else f"line {number}: {p.reason.removeprefix('is ')}"
            for p in problems
        ]
    try:
        return UploadLine.model_validate(data), []
    except ValidationError as exc:
        return None, [
            f"line {number}, field {'.'.join(str(p) for p in e['loc']) or '(line)'!r}: {e['msg']}"
            for e in exc.errors(include_url=False)
        ]


def _limit_problems(data: dict) -> list[Problem]:
    """The answer and each step's arguments are tool arguments; an observation has a size limit."""
    problems = check_json(data.get("answer"), field="answer", limits=TOOL_ARGUMENTS)
    steps = data.get("trajectory")
    for index, step in enumerate(steps if isinstance(steps, list) else []):
        if not isinstance(step, dict):
            continue
        at = f"trajectory[{index}]"
        problems += check_json(step.get("arguments"), field=f"{at}.arguments", limits=TOOL_ARGUMENTS)
        size = len(json.dumps(step.get("observation"), ensure_ascii=False))
        if size > OBSERVATION_CHARS:
            problems.append(
                Problem(
                    f"{at}.observation", None, f"is {size:,} characters of JSON (the limit is {OBSERVATION_CHARS:,})"
                )
            )
    return problems


def _steps(line: UploadLine) -> list[StepRecord]:
    return [
        StepRecord(
            index,
            s.tool,
            s.arguments,
            s.observation,
            s.error_kind,
            s.latency_ms,
            s.text,
            s.input_tokens,
            s.output_tokens,
        )
        for index, s in enumerate(line.trajectory)
    ]
