"""No-model floors the data engine holds every L2 cell under, counted like the rank rules' picks.

The rank quota (:mod:`.rank_rules`) caps what a rule over the look-alikes would pick; a *floor
probe* goes further and plays the no-model agents themselves on a draft's question, through the
agent toolset, as an evaluation would: the strong baseline and the rank-rule agents
(``benchmark.runs.floors`` registers them; the cases app cannot import the runs app). The quota
then refuses a draft whose gold a floor picks once that floor's picks hold the cell's share
(``RankQuota.floor_refusal``), so on the release each floor finds at most 15% of a cell's golds, or
chance plus 5 points where chance is higher, for the first 75 attempts per case.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from kernel.registry import Registry

from .document import CaseDocument

# a case -> floor agent's name -> the place ids its submitted answer names
FloorProbe = Callable[[CaseDocument], Mapping[str, frozenset[str]]]
FLOOR_PROBES: Registry[FloorProbe] = Registry("floor probe")


def floor_picks(document: CaseDocument) -> dict[str, frozenset[str]]:
    """Every registered probe's floors on a case: floor name -> the place ids its answer names."""
    picks: dict[str, frozenset[str]] = {}
    for name in FLOOR_PROBES.names():
        picks.update(FLOOR_PROBES.get(name)(document))
    return picks
