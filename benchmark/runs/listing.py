"""What a run needs to be listed on the leaderboard, and which runs are baselines rather than models.

The run code writes these when it stores a run (the platform's own description of the runs it drives, the
checked model name and description of the others); the leaderboard (``benchmark.board``) reads them.
"""

from __future__ import annotations

from benchmark.runs.models import EvaluationRun

# Baselines: agents that are not models under test. The reference agent replays the gold answers (an
# oracle); the heuristic, the skeptic and the rank-rule agents are no-model floors; a "scripted" or "fake"
# model string is the scripted endpoint (devtools/fake_endpoint.py), which answers with the gold
# answers too.
BASELINE_AGENTS = ("reference", "heuristic", "skeptic")
RANK_RULE_PREFIX = "rank-"  # the rank-rule floors: rank-nearest, rank-best-rated, ... (agents/skeptic)
SCRIPTED_MODEL_NAMES = ("scripted", "fake")


def is_baseline(*, agent: str, model: str = "") -> bool:
    """Whether a run with ``agent`` (and an endpoint's litellm ``model`` string) is a baseline, not a model.

    Baselines are shown in their own section of the leaderboard and never ranked among models.
    """
    return (
        agent in BASELINE_AGENTS
        or agent.startswith(RANK_RULE_PREFIX)
        or model.rsplit("/", 1)[-1].lower() in SCRIPTED_MODEL_NAMES
    )


# Agents whose runs the platform does not drive: only whoever ran them can say which model answered and how.
SELF_DESCRIBED_AGENTS = ("upload", "external")
DESCRIPTION_MAX = 2000
MODEL_NAME_MAX = 200
_PLATFORM_AGENTS = {
    "reference": "an oracle that replays each case's gold answer through the tools (it shows that the cases and "
    "the scoring agree: an upper bound, not a model)",
    "heuristic": "a no-model floor that follows fixed rules over the tools' results",
    "skeptic": "a no-model floor that reads the notes and picks by a keyword vote",
    "litellm": "the platform's agent loop (the paper's system prompt and the agent tools) asking the model",
}


def run_model(run: EvaluationRun) -> str:
    """The model a run evaluated: its endpoint's model string, else the model its submitter declared."""
    return run.endpoint.model if run.endpoint_id and run.endpoint else run.model_name


def listing_problems(*, agent: str, model: str, description: str) -> list[str]:
    """Why a run is not listed on the leaderboard ([] when it is): a run of a model needs the model's name, and
    every run a description of who ran it and how (the platform writes one for the runs it drives itself)."""
    problems = []
    if not model.strip() and not is_baseline(agent=agent, model=model):
        problems.append("it names no model (model_name)")
    if not description.strip():
        problems.append("it does not say who ran it and how (description)")
    return problems


def run_listing_problems(run: EvaluationRun) -> list[str]:
    """``listing_problems`` of a stored run."""
    return listing_problems(agent=run.agent, model=run_model(run), description=run.description)


def listing_fields_clean(*, model_name: str, description: str) -> tuple[str, str]:
    """``model_name`` and ``description`` as stored: stripped, checked.

    Raises:
        ValueError: naming the field that is too long or not text.
    """
    for field, value, limit in (
        ("model_name", model_name, MODEL_NAME_MAX),
        ("description", description, DESCRIPTION_MAX),
    ):
        if not isinstance(value, str) or len(value.strip()) > limit or "\x00" in value:
            raise ValueError(f"{field} must be text of at most {limit} characters without NUL; got {str(value)[:40]!r}")
    if "\n" in model_name:
        raise ValueError(f"model_name must be one line; got {model_name[:40]!r}")
    return model_name.strip(), description.strip()


def platform_description(*, agent: str, endpoint=None, created_by=None) -> str:
    """The description of a run the platform drives itself; "" for an upload or an external agent's run."""
    if agent in SELF_DESCRIBED_AGENTS:
        return ""
    if agent.startswith(RANK_RULE_PREFIX):
        what = f"a no-model floor that picks by one fixed rule ({agent[len(RANK_RULE_PREFIX) :]}) and reads no note"
    else:
        what = _PLATFORM_AGENTS.get(agent, "a registered agent")
    text = f"Run by this platform's workers with its {agent} agent: {what}."
    if endpoint is not None:
        who = f", submitted by {created_by.get_username()}" if created_by is not None else ""
        text += f" Model endpoint {endpoint.name!r} ({endpoint.model}){who}."
    return text
