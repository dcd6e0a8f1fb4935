"""A run's settings (``RunConfig``): their defaults and allowed ranges, written once.

Every way of starting a run builds its settings here and is refused here: ``manage.py evaluate``
and ``external_run`` (an option per setting, ``--tool-budget`` for ``tool_budget``), the REST
API's submissions (``config``), the submission flow and external runs. ``run_create`` stores
them in ``EvaluationRun.config``; the runner, the agents and the external-run service read them
back with ``RunConfig.from_stored``.

A stored config is one flat JSON object: these settings and, beside them, what belongs to the run
rather than to its agent: its filters (``RUN_FILTERS``: ``limit``, ``category``, ``level``, ``per_cell``) and
its marks (``smoke_run`` of a submission's full run, ``source`` and ``file`` of an upload,
``recording_pruned_at`` once retention pruned its recording). Settings given by a user may hold
nothing else; a stored config is read by taking the settings and leaving the rest, so rows of
every age read (rows from before ``timeout_s`` was stored take its default).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

log = logging.getLogger(__name__)

DEFAULT_TOOL_BUDGET = 30
# The wall clock of one (case, trial), and its ceiling: the evaluation task's time limit is sized
# for it (settings.EVALUATION_AGENT_SECONDS), so a longer clock would be cut by the task instead.
DEFAULT_TIMEOUT_S = 600
MAX_TRIALS = 20  # an upload's trial numbers are bounded by it too
# Stored beside the settings; they choose the cases (per_cell: the first N cases of each table 2 cell, a stratified
# sample).
RUN_FILTERS = ("limit", "category", "level", "per_cell")


class RunConfigError(ValueError):
    """Settings that are out of range or unknown; ``problems`` maps each field to what is wrong."""

    def __init__(self, problems: dict[str, str]):
        self.problems = problems
        super().__init__("; ".join(f"{name} {problem}" for name, problem in problems.items()))


class RunConfig(BaseModel):
    """The settings of a run's agent: the same for every (case, trial) of the run."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, validate_default=True)

    tool_budget: int = Field(
        default=DEFAULT_TOOL_BUDGET,
        ge=1,
        le=200,
        description="Tool calls per (case, trial); past it the case ends budget_exhausted.",
    )
    trials: int = Field(
        default=1, ge=1, le=MAX_TRIALS, description="Times each case is run (pass^k and the mean over trials)."
    )
    temperature: float = Field(default=0.0, ge=0.0, le=2.0, description="Sampling temperature of a model agent.")
    seed: int = Field(
        default=0, ge=0, le=2**31 - 1, description="Seed of the bootstrap intervals of the run's aggregates."
    )
    timeout_s: float = Field(
        default=DEFAULT_TIMEOUT_S,
        ge=1.0,
        le=DEFAULT_TIMEOUT_S,
        description="Wall clock of one (case, trial) in seconds; the case ends timeout there.",
    )

    @field_validator("*", mode="before")
    @classmethod
    def _no_booleans(cls, value: Any) -> Any:
        if isinstance(value, bool):  # pydantic would read True as 1
            raise ValueError("a boolean is not a number")
        return value

    @classmethod
    def from_input(cls, data: Mapping[str, Any]) -> RunConfig:
        """Settings given by a user (command options, an API request); those left out take their defaults.

        Raises:
            RunConfigError: a value out of range or of the wrong type, or a key that is not a setting;
                each problem names its field and what is allowed.
        """
        try:
            return cls.model_validate(dict(data))
        except ValidationError as exc:
            raise RunConfigError(_problems(exc, data)) from None

    @classmethod
    def from_stored(cls, config: Mapping[str, Any] | None) -> RunConfig:
        """The settings of a stored ``EvaluationRun.config``; its filters and marks are left out.

        A value stored before its range was enforced (``temperature`` and ``seed`` were not checked
        until this model) is read as it was stored: it is what the run ran with.
        """
        known = {name: value for name, value in (config or {}).items() if name in cls.model_fields}
        try:
            return cls.from_input(known)
        except RunConfigError as exc:
            log.warning("a stored run config is outside today's ranges (%s); read as stored", exc)
            return cls.model_construct(**{**cls().model_dump(), **known})

    def stored(self) -> dict[str, Any]:
        """The settings as ``run_create`` stores them in ``EvaluationRun.config``."""
        return self.model_dump()


def allowed(name: str) -> str:
    """What a setting accepts, e.g. ``"a whole number from 1 to 20"``."""
    info = RunConfig.model_fields[name]
    low = next(m.ge for m in info.metadata if hasattr(m, "ge"))
    high = next(m.le for m in info.metadata if hasattr(m, "le"))
    kind = "a whole number" if info.annotation is int else "a number"
    return f"{kind} from {_number(low)} to {_number(high)}"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _problems(exc: ValidationError, data: Mapping[str, Any]) -> dict[str, str]:
    problems: dict[str, str] = {}
    for error in exc.errors():
        name = str(error["loc"][0]) if error["loc"] else "config"
        if error["type"] == "extra_forbidden":
            problems[name] = f"is not a run setting (the settings: {', '.join(RunConfig.model_fields)})"
        else:
            problems[name] = f"must be {allowed(name)}, got {data.get(name)!r}"
    return problems


# --- command options ---------------------------------------------------------------------------


def add_run_config_arguments(parser, names: tuple[str, ...] = tuple(RunConfig.model_fields)) -> None:
    """Add an option per setting (``--tool-budget`` for ``tool_budget``) that says its range and default."""
    for name in names:
        info = RunConfig.model_fields[name]
        parser.add_argument(
            _option(name),
            type=info.annotation,
            default=None,
            help=f"{info.description} {allowed(name).capitalize()}; default {_number(info.default)}.",
        )


def run_config_from_options(options: Mapping[str, Any]) -> RunConfig:
    """The settings given as command options (argparse's dict); options left out take their defaults.

    Raises:
        ValueError: a value out of range; the message names the option and what it accepts.
    """
    given = {name: options[name] for name in RunConfig.model_fields if options.get(name) is not None}
    try:
        return RunConfig.from_input(given)
    except RunConfigError as exc:
        raise ValueError("; ".join(f"{_option(name)} {problem}" for name, problem in exc.problems.items())) from None


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")
