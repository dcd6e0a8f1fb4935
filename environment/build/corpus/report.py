"""The corpus report: how varied, how noisy and how fair the notes are (``manage.py corpus_report``).

Pure functions over plain data (no database): the command reads a built city and prints
:func:`corpus_report`. Figures:

* distinct evidence sentences (those that support, deny or end a fact) and distinct comment
  texts, as written and **masked**: place names and aliases, numbers, months and weekdays
  replaced by placeholders, emoji, a leading heads-up and a trailing sign-off dropped, case and
  spacing folded, so that a sentence made different only by a name, a date or appended filler
  counts once;
* the share of each note kind and each evidence stance;
* notes per place;
* the facts that hold under the evidence rule, by kind, and the dated states that hold through
  the week the cases are set in;
* where questions and hearsay about a fact sit: the share of its holders with one, against the
  share of its rivals (places of a kind the fact fits, within 500 m of a holder, not holding it),
  so a reader can see that where a question sits says nothing.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from . import stances

_MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_DAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_DATE = re.compile(rf"\b(?:{_MONTHS}|{_DAYS})\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d+")
_EMOJI = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf\u2764\ufe0f]")
_SPACE = re.compile(r"\s+")
_ENDINGS = sorted({s.strip() for s in stances.SIGN_OFF if s.strip()}, key=len, reverse=True)
_OPENINGS = sorted({h for h in stances.HEADS_UP if h}, key=len, reverse=True)
RIVAL_RADIUS_M = 500.0


class Masker:
    """Masks what makes two sentences differ without saying anything else."""

    def __init__(self, names: Iterable[str]):
        words = sorted({n.strip() for n in names if len(n.strip()) >= 3}, key=len, reverse=True)
        self._names = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)", re.IGNORECASE)

    def __call__(self, text: str) -> str:
        text = self._names.sub("<place>", text)
        text = _NUMBER.sub("<n>", _DATE.sub("<date>", text))
        text = _EMOJI.sub("", text).strip()
        for opening in _OPENINGS:
            if text.startswith(opening):
                text = text[len(opening) :]
                break
        for ending in _ENDINGS:
            if text.endswith(ending):
                text = text[: -len(ending)]
                break
        return _SPACE.sub(" ", text.strip(" .!,;:–-")).casefold()


def distinct_share(texts: Sequence[str], mask: Masker | None = None) -> float:
    if not texts:
        return 0.0
    return len({mask(t) if mask else t for t in texts}) / len(texts)


@dataclass(frozen=True)
class Label:
    """What the report needs of one evidence label."""

    place_id: str
    key: str
    stance: str
    text: str


@dataclass(frozen=True)
class Spot:
    """A place: where it is and the facts its kind fits."""

    place_id: str
    lon: float
    lat: float
    fits: frozenset[str]


@dataclass
class CorpusReport:
    notes: int
    comments: int
    labels: int
    note_kinds: Counter
    stances: Counter
    notes_per_place: tuple[int, float, int]  # min, median, max over places with notes
    evidence: tuple[int, float, float]  # sentences, distinct share as written, masked
    comment_texts: tuple[int, float, float]
    facts: Counter  # held under the rule, by kind
    live_in_case_week: Counter  # dated states holding through the case week, by key
    placement: dict[str, tuple[float, float, int, int]] = field(default_factory=dict)  # key -> shares and counts

    def lines(self) -> list[str]:
        def share(n: int, total: int) -> str:
            return f"{n:>7,} {100 * n / total:5.1f} %" if total else f"{n:>7,}"

        out = [
            f"notes {self.notes:,}, comments {self.comments:,}, evidence labels {self.labels:,}",
            "notes per place (places with notes): min {}, median {:g}, max {}".format(*self.notes_per_place),
            "",
            "note kinds:",
            *(f"  {kind:<10} {share(n, self.notes)}" for kind, n in self.note_kinds.most_common()),
            "evidence stances:",
            *(f"  {stance:<10} {share(n, self.labels)}" for stance, n in self.stances.most_common()),
            "",
            "distinct texts        count   as written   masked",
            _distinct_line("evidence sentences", self.evidence),
            _distinct_line("comments", self.comment_texts),
            "",
            "facts that hold under the rule: " + ", ".join(f"{k} {n:,}" for k, n in sorted(self.facts.items())),
            "dated states holding through the case week: "
            + (", ".join(f"{k} {n}" for k, n in self.live_in_case_week.most_common()) or "none"),
            "",
            "questions and hearsay: share of holders with one, share of rivals (within "
            f"{RIVAL_RADIUS_M:g} m of a holder) with one",
        ]
        holders_with = rivals_with = holders = rivals = 0
        for key, (at_holders, at_rivals, n_holders, n_rivals) in sorted(self.placement.items()):
            out.append(f"  {key:<30} {_pct(at_holders)} of {n_holders:>4}   {_pct(at_rivals)} of {n_rivals:>4}")
            holders_with += round(at_holders * n_holders)
            rivals_with += round(at_rivals * n_rivals)
            holders += n_holders
            rivals += n_rivals
        if holders and rivals:
            out.append(f"  {'all':<30} {_pct(holders_with / holders)}         {_pct(rivals_with / rivals)}")
        return out


def _pct(share: float) -> str:
    return f"{100 * share:5.1f} %"


def _distinct_line(name: str, figures: tuple[int, float, float]) -> str:
    count, written, masked = figures
    return f"  {name:<18} {count:>7,} {100 * written:>10.1f} % {100 * masked:>6.1f} %"


def _metres(a: Spot, b: Spot) -> float:
    lat = math.radians((a.lat + b.lat) / 2)
    return math.hypot((a.lon - b.lon) * 111_320 * math.cos(lat), (a.lat - b.lat) * 110_574)


def placement(
    spots: Sequence[Spot], holders: dict[str, set[str]], labels: Sequence[Label], keys: Iterable[str]
) -> dict[str, tuple[float, float, int, int]]:
    """key -> (share of holders with a question or hearsay about it, share of rivals with one, holders, rivals)."""
    asked: dict[str, set[str]] = {}
    for label in labels:
        if label.stance in ("asks", "hearsay"):
            asked.setdefault(label.key, set()).add(label.place_id)
    by_id = {s.place_id: s for s in spots}
    out = {}
    for key in keys:
        held = {p for p in holders.get(key, set()) if p in by_id}
        if not held:
            continue
        rivals = {
            s.place_id
            for s in spots
            if key in s.fits and s.place_id not in held and any(_metres(s, by_id[h]) <= RIVAL_RADIUS_M for h in held)
        }
        talk = asked.get(key, set())
        at_rivals = len(talk & rivals) / len(rivals) if rivals else 0.0
        out[key] = (len(talk & held) / len(held), at_rivals, len(held), len(rivals))
    return out


def corpus_report(
    *,
    note_kinds: Counter,
    notes_per_place: Sequence[int],
    comment_texts: Sequence[str],
    labels: Sequence[Label],
    facts: Counter,
    live_in_case_week: Counter,
    names: Iterable[str],
    spots: Sequence[Spot] = (),
    holders: dict[str, set[str]] | None = None,
    placement_keys: Iterable[str] = (),
) -> CorpusReport:
    """The figures of one city's corpus (see the module's docstring)."""
    mask = Masker(names)
    evidence = [lab.text for lab in labels if lab.stance in ("supports", "negates", "ended")]
    per_place = sorted(notes_per_place)
    return CorpusReport(
        notes=sum(note_kinds.values()),
        comments=len(comment_texts),
        labels=len(labels),
        note_kinds=note_kinds,
        stances=Counter(lab.stance for lab in labels),
        notes_per_place=(per_place[0], statistics.median(per_place), per_place[-1]) if per_place else (0, 0, 0),
        evidence=(len(evidence), distinct_share(evidence), distinct_share(evidence, mask)),
        comment_texts=(len(comment_texts), distinct_share(comment_texts), distinct_share(comment_texts, mask)),
        facts=facts,
        live_in_case_week=live_in_case_week,
        placement=placement(spots, holders or {}, labels, placement_keys) if spots else {},
    )
