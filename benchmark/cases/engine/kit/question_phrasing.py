"""Question phrasing: balanced skeletons, articles, plurals, travel modes and moments in words.

Each cell draws its question skeletons from banks (``benchmark/cases/engine/wording/``). The
:class:`Phrasebook` picks the least-used skeleton of a bank so far (ties broken by the
attempt's random stream), and counts a skeleton only when its case is kept, so every cell
spreads over its skeletons and no skeleton dominates. Place names stay as in the city's data.
"""

from __future__ import annotations

import random
import re
import string
from collections import Counter
from datetime import datetime

from benchmark.cases.lexicon import indefinite
from benchmark.cases.phrasings import BANKS, HIDDEN, PUBLIC

VEHICLE_ADVERB = {"walking": ("on foot",), "cycling": ("by bike", "by bicycle"), "driving": ("by car",)}
VEHICLE_GERUND = {"walking": "walking", "cycling": "cycling", "driving": "driving"}
VEHICLE_VERB = {"walking": "walk", "cycling": "cycle", "driving": "drive"}
MODE_ADJECTIVE = {"time": ("fastest", "quickest"), "distance": ("shortest",)}
TRIES_PER_CASE = 40
MODE_GOAL = {
    "time": ("as quickly as possible", "in the least time"),
    "distance": ("covering the least distance", "with the shortest distance overall"),
}


def in_split(items: tuple[str, ...], split: str) -> list[int]:
    """The positions of a bank's skeletons (or rule sentences) that a release split writes from: public
    releases the even ones, hidden releases the odd ones, so the two never share a question's wording."""
    if split not in BANKS:
        raise ValueError(f"unknown split {split!r}; allowed: {', '.join(BANKS)}")
    return list(range(BANKS.index(split), len(items), 2))


def split_choice(rng: random.Random, items: tuple[str, ...], split: str) -> str:
    """One of ``items`` from the split's half (a hidden release: the operator's hidden bank where it has them)."""
    own = _hidden_wording(items) if split == HIDDEN else None
    if own:
        return rng.choice(own)
    return items[rng.choice(in_split(items, split))]


def _hidden_wording(items: tuple[str, ...]) -> tuple[str, ...] | None:
    """The operator's hidden sentences for this wording bank, if the hidden bank has them."""
    from benchmark.cases.hidden_bank import bank_name, hidden_bank

    name = bank_name(items)
    return hidden_bank().wordings.get(name) if name else None


class Phrasebook:
    """Balanced choice of skeletons: per bank, the least-used skeleton of the split's half first, ties by the
    random stream."""

    def __init__(self, split: str = PUBLIC) -> None:
        in_split((), split)  # checks the name
        self.split = split
        self.used: Counter = Counter()
        self.tried: Counter = Counter()

    def pick(self, rng: random.Random, bank: str, skeletons: tuple[str, ...]) -> tuple[str, str]:
        """(skeleton id, skeleton) from ``bank``; the id keeps the skeleton's position in the whole bank (or, for
        the operator's hidden bank, ``#h`` and its position there)."""
        own = _hidden_wording(skeletons) if self.split == HIDDEN else None
        if own:
            counts = {i: self.used[f"{bank}#h{i}"] for i in range(len(own))}
            low = min(counts.values())
            index = rng.choice([i for i, c in counts.items() if c == low])
            return f"{bank}#h{index}", own[index]
        positions = in_split(skeletons, self.split)
        if not positions:
            raise ValueError(f"question bank {bank!r} has no skeleton for the {self.split} split")
        counts = {i: self.used[f"{bank}#{i}"] for i in positions}
        low = min(counts.values())
        index = rng.choice([i for i, c in counts.items() if c == low])
        return f"{bank}#{index}", skeletons[index]

    def variant(self, rng: random.Random, name: str, weights: dict[str, float]) -> str:
        """The variant of ``name`` furthest behind its share (kept cases / weight), ties by the random stream.

        Variants succeed at different rates; choosing by what was kept (not by chance) keeps a
        cell's mix at its weights. A variant that city rarely allows (more than ``TRIES_PER_CASE``
        attempts per kept case) gives way to the others; once every variant has, they are drawn by weight, so
        a cell is never stuck on one the city no longer allows."""
        tried = {v: self.tried[f"{name}:{v}"] for v in weights}
        kept = {v: self.used[f"variant:{name}:{v}"] for v in weights}
        open_ = {v: w for v, w in weights.items() if w > 0 and tried[v] < TRIES_PER_CASE * (kept[v] + 1)}
        if open_:
            ratios = {v: (kept[v] + 1) / w for v, w in open_.items()}
            low = min(ratios.values())
            chosen = rng.choice(sorted(v for v, r in ratios.items() if r == low))
        else:  # every variant has used its tries: draw by weight, so one the city no longer allows cannot stall
            names = sorted(v for v, w in weights.items() if w > 0)
            chosen = rng.choices(names, weights=[weights[v] for v in names])[0]
        self.tried[f"{name}:{chosen}"] += 1
        return chosen

    def commit(self, skeleton_ids: list[str]) -> None:
        self.used.update(skeleton_ids)


def slot_names(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def check_bank(bank: str, skeletons: tuple[str, ...], slots: dict) -> None:
    """Every skeleton of a bank must be fillable with the slots its recipe gives (checked at every use, so
    one case of a bank proves the whole bank)."""
    for skeleton in skeletons:
        missing = slot_names(skeleton) - set(slots)
        if missing:
            raise KeyError(f"bank {bank!r}: skeleton {skeleton!r} needs {sorted(missing)}, not given")


def fill(template: str, **slots: object) -> str:
    """The template with its slots filled, spaces collapsed, the first letter capitalised; a name that ends a
    sentence with its own full stop ("Virgin Oil Co.") gets no second one."""
    text = template.format(**slots)
    text = re.sub(r"\s+([,.?!;:])", r"\1", " ".join(text.split()))
    text = re.sub(r"(?<!\.)\.\.(?!\.)", ".", text)
    return text[:1].upper() + text[1:]


def a(word: str) -> str:
    """'a café', 'an Asian restaurant'."""
    return f"{indefinite(word)} {word}"


def join_names(names: list[str], last: str = "and") -> str:
    """'A', 'A and B', 'A, B and C'."""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" {last} " + names[-1]


def vehicle_adverb(rng: random.Random, vehicle: str) -> str:
    return rng.choice(VEHICLE_ADVERB[vehicle])


def mode_adjective(rng: random.Random, mode: str) -> str:
    return rng.choice(MODE_ADJECTIVE[mode])


def mode_goal(rng: random.Random, mode: str) -> str:
    return rng.choice(MODE_GOAL[mode])


def travel_slots(rng: random.Random, vehicle: str, mode: str | None = None) -> dict[str, str]:
    """Slots for a travel mode: {by} 'by bike', {going} 'cycling', {go} 'cycle', and for a mode
    {best} 'quickest', {Best} 'Quickest', {goal} 'as quickly as possible'."""
    slots = {
        "by": vehicle_adverb(rng, vehicle),
        "going": VEHICLE_GERUND[vehicle],
        "Going": VEHICLE_GERUND[vehicle].capitalize(),
        "go": VEHICLE_VERB[vehicle],
    }
    if mode:
        best = mode_adjective(rng, mode)
        slots.update(best=best, Best=best.capitalize(), goal=mode_goal(rng, mode))
    return slots


def moment_slots(when: datetime) -> dict[str, str]:
    """{time} '17:40', {day} 'Saturday', {date} 'Saturday 12 December'."""
    return {
        "time": when.strftime("%H:%M"),
        "day": when.strftime("%A"),
        "date": f"{when.strftime('%A')} {when.day} {when.strftime('%B')}",
    }


def number(value: float) -> str:
    """4.0 -> '4', 4.5 -> '4.5', 300.0 -> '300' (how the verifier looks for it in the question)."""
    return f"{value:g}"
