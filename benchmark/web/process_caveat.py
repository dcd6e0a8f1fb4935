"""When the process metrics say little: an agent that read no note has no grounding to speak of.

Tool Efficiency (TE) rewards few, unrepeated, successful calls and Reasoning Purity (RP) claims the tools do
not contradict. An agent that never calls ``search_notes`` or ``note_detail`` makes few calls and no claim
about what people wrote, so both come out high (the no-model heuristic scores RP 100 and TE 96-99) while it
never looked at the evidence the L2 cases rest on. The run page and the replay mark those values as trivially
high instead of letting them read as good process.
"""

from __future__ import annotations

NOTE_TOOLS = ("search_notes", "note_detail")
TRIVIAL_METRICS = ("TE", "RP")
HIGH = 0.9  # a metric's value from 0 to 1 (the run page's are in %: 90)
BADGE = "trivially high: no note read"


def notes_caveat(*, calls: int, note_calls: int) -> str:
    """Why TE and RP say little here ("" when the agent read notes, or made no call at all)."""
    if not calls or note_calls:
        return ""
    return (
        f"This agent read no note ({calls} tool call{'s' if calls != 1 else ''}, none to search_notes or note_detail): "
        "Tool Efficiency and Reasoning Purity come out high for want of anything to get wrong, not for grounding "
        "in the evidence."
    )


def trivially_high(name: str, value: float | None, *, caveat: str, percent: bool = False) -> bool:
    """Whether the metric ``name`` with ``value`` is to be marked as trivially high under ``caveat``."""
    if not caveat or name not in TRIVIAL_METRICS or value is None:
        return False
    return value >= (HIGH * 100 if percent else HIGH)
