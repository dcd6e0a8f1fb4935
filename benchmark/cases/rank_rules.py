"""Rank rules over a cell: does any fixed rule that reads no note pick the L2 gold more often than chance?

A solver without notes, facing an L2 gold and its look-alikes (:mod:`.lookalike_report`), can still
bet on a visible measure: the nearest place or the farthest, the best-rated or the worst-rated,
the cheapest or the dearest, the first option named or the last, the place whose notes hold the
need's words most often or least often. Each case alone must resist the rule the question invites
(the verifier refuses a gold that is the nearest of its look-alikes, or that leads the keyword
count); this module looks at a whole cell: for each rule, the share of cases whose gold it picks
(a tie of k places counts 1/k), against chance, the mean of 1 / (look-alikes + 1).

A skeptic would also learn a rank from the public cases ("the gold is usually the third nearest"):
for each signal, the cell's most common rank of the gold, and the share of golds it would pick. That
rule is fitted to the cell it is scored on, so it is reported and not flagged; a rank that holds far
more golds than chance is a defect of the cell all the same.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# (rule, the signal it reads, whether it picks the largest value)
RULES: tuple[tuple[str, str, bool], ...] = (
    ("best by the question's measure", "measure", False),
    ("worst by the question's measure", "measure", True),
    ("best-rated", "rating", True),
    ("worst-rated", "rating", False),
    ("cheapest", "cost", False),
    ("dearest", "cost", True),
    ("first named", "order", False),
    ("last named", "order", True),
    ("most keyword hits", "hits", True),
    ("fewest keyword hits", "hits", False),
)
MARGIN = 0.10  # a rule this far above chance over a cell is flagged (a cell of 35 cases: about 1.5 standard errors)


@dataclass(frozen=True)
class CaseSignals:
    """What a solver without notes sees of one L2 gold and its look-alikes: signal -> place_id -> value."""

    gold: str
    places: tuple[str, ...]  # the gold and its look-alikes
    signals: Mapping[str, Mapping[str, float]]


def picks_gold(case: CaseSignals, signal: str, largest: bool) -> float | None:
    """The share of the gold among the places a rule picks (1/k in a tie of k); None when the signal is not
    known for every place (a rule that cannot be applied to the case)."""
    values = case.signals.get(signal)
    if not values or any(p not in values for p in case.places):
        return None
    best = max(values[p] for p in case.places) if largest else min(values[p] for p in case.places)
    winners = [p for p in case.places if values[p] == best]
    return 1 / len(winners) if case.gold in winners else 0.0


@dataclass(frozen=True)
class RuleRate:
    rule: str
    cases: int  # the cases the rule could be applied to
    rate: float  # the share of their golds it picks
    chance: float  # the mean of 1 / (places) over those cases

    @property
    def flagged(self) -> bool:
        return self.cases > 0 and self.rate > self.chance + MARGIN


def rule_rates(cases: Sequence[CaseSignals]) -> list[RuleRate]:
    """Every rule's rate over ``cases`` (one cell), with the chance rate over the cases it applies to."""
    rates = []
    for rule, signal, largest in RULES:
        picked = [(picks_gold(c, signal, largest), c) for c in cases]
        applied = [(share, c) for share, c in picked if share is not None]
        if not applied:
            continue
        rate = statistics.fmean(share for share, _ in applied)
        chance = statistics.fmean(1 / len(c.places) for _, c in applied)
        rates.append(RuleRate(rule, len(applied), rate, chance))
    return rates


def gold_rank(case: CaseSignals, signal: str, largest: bool) -> int | None:
    """The gold's rank (1 = what the rule "best" picks) by a signal; ties share the better rank."""
    values = case.signals.get(signal)
    if not values or any(p not in values for p in case.places):
        return None
    gold = values[case.gold]
    return 1 + sum(1 for p in case.places if (values[p] > gold if largest else values[p] < gold))


LEARNED = (("measure", False, "the question's measure"), ("rating", True, "rating"), ("hits", True, "keyword hits"))


def learned_ranks(cases: Sequence[CaseSignals]) -> list[tuple[str, int, int, float, float]]:
    """(signal's name, the most common rank of the gold by it, cases, share of golds at that rank, chance)."""
    out = []
    for signal, largest, name in LEARNED:
        ranked = [(r, c) for c in cases if (r := gold_rank(c, signal, largest)) is not None]
        if not ranked:
            continue
        ranks = [r for r, _ in ranked]
        common = max(sorted(set(ranks)), key=ranks.count)
        chance = statistics.fmean(1 / len(c.places) for _, c in ranked)
        out.append((name, common, len(ranked), ranks.count(common) / len(ranked), chance))
    return out


def rules_table(cells: Mapping[str, Sequence[CaseSignals]]) -> str:
    """Per cell and rule: the cases it applies to, how often it picks the gold, chance; "!" where it beats
    chance by more than MARGIN."""
    lines = [f"{'cell':<12} {'rule':<44} {'cases':>5} {'picks gold':>10} {'chance':>7}"]
    for cell in sorted(cells):
        for r in rule_rates(cells[cell]):
            mark = "  !" if r.flagged else ""
            lines.append(f"{cell:<12} {r.rule:<44} {r.cases:>5} {100 * r.rate:>9.1f}% {100 * r.chance:>6.1f}%{mark}")
        for name, rank, cases, share, chance in learned_ranks(cells[cell]):
            rule = f"rank {rank} by {name} (learned)"
            lines.append(f"{cell:<12} {rule:<44} {cases:>5} {100 * share:>9.1f}% {100 * chance:>6.1f}%")
    return "\n".join(lines)


# ------------------------------------------------------------------ keeping a cell's ranks spread

RANK_SHARE = 0.15  # no rank of the gold by a signal holds more of a cell than this (or chance + CHANCE_MARGIN)
CHANCE_MARGIN = 0.05


class RankQuota:
    """What the data engine keeps per L2 cell so that no rank rule finds the gold much more often than chance:
    a gold whose rank by a signal (the question's measure, rating, keyword hits) already holds its share of the
    cell, ``max(RANK_SHARE, chance + CHANCE_MARGIN)`` of the target, is refused, and so is one that a fixed rule
    (:data:`RULES`: the best-rated, the worst-rated, the dearest, ...) would pick when that rule's picks already
    hold that share (a tie of k places counts 1/k, as :func:`picks_gold` scores it). The floor agents themselves
    (:mod:`.floors`) are held to the same share by what their answers name (:meth:`floor_refusal`)."""

    def __init__(self, target: int):
        self.target = target
        self.taken: dict[tuple[str, int], int] = {}
        self.picked: dict[str, float] = {}
        self.golds = 0
        self.inverse = 0.0  # the sum of 1 / places over the golds taken: chance is its mean
        self.applied: dict[str, int] = {}  # per signal, the golds taken whose every place it is known for
        self.floors: dict[str, int] = {}  # per floor agent, the cases taken whose gold its answer names

    def cap(self, places: int, signal: str | None = None) -> int:
        """The most golds one rank may hold, were a gold among ``places`` places added to the cell: a share of
        the cases a rule by ``signal`` applies to (a signal unknown for some places, a rating or a cost, applies
        to fewer than the target; the share so far of the golds it applied to estimates how many)."""
        return max(2, int(self.share(places) * self._cases(signal)))

    def _cases(self, signal: str | None) -> float:
        if signal is None:
            return float(self.target)
        return self.target * (self.applied.get(signal, 0) + 1) / (self.golds + 1)

    def share(self, places: int) -> float:
        """``max(RANK_SHARE, chance + CHANCE_MARGIN)``, chance being the cell's (the mean of 1 / places over
        its golds so far and one among ``places``), not the new case's alone: one case with few look-alikes
        does not raise the cap of a cell whose golds have a hundred."""
        chance = (self.inverse + 1 / places) / (self.golds + 1)
        return max(RANK_SHARE, chance + CHANCE_MARGIN)

    def allows(self, signal: str, rank: int, places: int) -> bool:
        """Whether a gold at ``rank`` by ``signal`` among ``places`` places would still fit the cell's share."""
        return self.taken.get((signal, rank), 0) < self.cap(places, signal)

    def refusal(self, cases: Sequence[CaseSignals]) -> str | None:
        """Why the golds of a new case would make a rank or a rule's pick too common (None when they would not)."""
        taken, picked = dict(self.taken), dict(self.picked)
        for case in cases:
            for signal, largest, name in LEARNED:
                rank = gold_rank(case, signal, largest)
                if rank is None:
                    continue
                if taken.get((signal, rank), 0) >= self.cap(len(case.places), signal):
                    return f"the gold's rank by {name} is already common in the cell"
                taken[signal, rank] = taken.get((signal, rank), 0) + 1
            for rule, signal, largest in RULES:
                share = picks_gold(case, signal, largest)
                if not share:
                    continue
                cap = max(2.0, self.share(len(case.places)) * self._cases(signal))
                if picked.get(rule, 0.0) + share > cap + 1e-9:
                    return f"the rule '{rule}' already picks the gold often in the cell"
                picked[rule] = picked.get(rule, 0.0) + share
        return None

    def floor_refusal(self, cases: Sequence[CaseSignals], floors: Mapping[str, frozenset[str]]) -> str | None:
        """Why a floor agent (:mod:`.floors`: the place ids each one's answer names) that picks a gold of the new
        case would find too many of the cell's golds (None when none would)."""
        for floor, named in sorted(floors.items()):
            for case in cases:
                if case.gold in named and self.floors.get(floor, 0) + 1 > self._floor_cap(case) + 1e-9:
                    return f"the floor agent '{floor}' already picks the gold often in the cell"
        return None

    def _floor_cap(self, case: CaseSignals) -> float:
        return max(2.0, self.share(len(case.places)) * self.target)

    def take(self, cases: Sequence[CaseSignals], floors: Mapping[str, frozenset[str]] | None = None) -> None:
        for floor, named in sorted((floors or {}).items()):
            if any(case.gold in named for case in cases):
                self.floors[floor] = self.floors.get(floor, 0) + 1
        for case in cases:
            self.golds += 1
            self.inverse += 1 / len(case.places)
            for signal in {signal for _, signal, _ in RULES} | {signal for signal, _, _ in LEARNED}:
                if gold_rank(case, signal, False) is not None:
                    self.applied[signal] = self.applied.get(signal, 0) + 1
            for signal, largest, _ in LEARNED:
                rank = gold_rank(case, signal, largest)
                if rank is not None:
                    self.taken[signal, rank] = self.taken.get((signal, rank), 0) + 1
            for rule, signal, largest in RULES:
                share = picks_gold(case, signal, largest)
                if share:
                    self.picked[rule] = self.picked.get(rule, 0.0) + share
