"""The hidden wording bank: the need phrasings and question wordings that only hidden releases write from.

Every wording bank of ``engine/wording/`` has two halves: public releases write from its even
positions, hidden releases from its odd ones; and the needs themselves come in two banks, each
need with its own phrasings (``benchmark/cases/needs.py``, ``benchmark/cases/phrasings.py``).
The hidden half is as public as the code, so it is an **example** hidden bank: the tests and the
demo use it, and an agent fitted to the public questions has never seen its needs or wording, but
anyone can read it. An
operator who publishes scores on a hidden release keeps the real bank outside the repository, in a
JSON file named by the setting ``HIDDEN_BANK_PATH`` (the environment variable of the same name)::

    {
      "phrasings": {"great_latte_art": ["...", "...", "...", "...", "...", "..."], ...},
      "wordings": {"nearby.NEED_NEAREST_NOUN": ["Near {a}, where can I ... {want}?", ...],
                   "trip.IMPLIED_AFTER": ["..."], ...}
    }

``phrasings`` maps a hidden need (``benchmark.cases.needs``) to at least :data:`MIN_PHRASINGS`
phrasings, each held to the rules of the repository's own (an infinitive phrase after "I want
to", lower-case, no final punctuation, never the fact's label, key or evidence words, an optional
``[kind ...]`` mark among the fact's kinds, none a public need's); ``wordings`` maps a wording bank (its module
under ``engine/wording/`` and its name, with ``.key`` for a bank kept in a dict, such as
``place.L0.address``) to question skeletons or rule sentences whose ``{slots}`` are among those the
bank's own sentences use, and include those every one of them uses. What the file does not name
comes from the example bank. A file that breaks a rule is refused, with the need or bank, the
sentence and the rule it breaks: its form and wordings when it is loaded, its phrasings against
the phrasing rules when they are first used (``benchmark.cases.phrasings.checked_bank``; writing a
hidden release uses them all before its first case), and a release that reuses the wording of the
notes when it is built (``evidence_reuse``). This module does not import the phrasings (they
import it).
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

MIN_PHRASINGS = 6
EXAMPLE = "the example hidden bank of the repository"


class HiddenBankError(ValueError):
    """The hidden bank file is unusable; the message names the need or bank, the sentence and the rule."""


@dataclass(frozen=True)
class HiddenBank:
    source: str  # the file, or EXAMPLE
    phrasings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    wordings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


def hidden_bank() -> HiddenBank:
    """The bank hidden releases write from: the operator's file when ``HIDDEN_BANK_PATH`` names one, else
    the example bank."""
    from django.conf import settings

    path = settings.HIDDEN_BANK_PATH
    return load_bank(path) if path else HiddenBank(EXAMPLE)


@cache
def load_bank(path: str) -> HiddenBank:
    """Read and check a hidden bank file (see the module's docstring)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HiddenBankError(f"HIDDEN_BANK_PATH: no file at {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise HiddenBankError(f"HIDDEN_BANK_PATH: {path} is not a readable JSON file ({exc})") from None
    if not isinstance(data, dict) or set(data) - {"phrasings", "wordings"}:
        extra = sorted(set(data) - {"phrasings", "wordings"}) if isinstance(data, dict) else []
        raise HiddenBankError(
            f"{path}: the bank must be a JSON object with the keys 'phrasings' and/or 'wordings'"
            + (f"; unknown: {', '.join(map(repr, extra))}" if extra else "")
        )
    phrasings = {key: _phrasings(path, key, items) for key, items in _mapping(path, data, "phrasings").items()}
    wordings = {name: _wordings(path, name, items) for name, items in _mapping(path, data, "wordings").items()}
    return HiddenBank(path, phrasings, wordings)


def _mapping(path: str, data: dict, part: str) -> dict:
    value = data.get(part, {})
    if not isinstance(value, dict):
        raise HiddenBankError(f"{path}: {part!r} must be an object mapping names to lists of sentences")
    return value


def _sentences(path: str, where: str, items) -> tuple[str, ...]:
    if not isinstance(items, list) or not all(isinstance(s, str) and s.strip() for s in items):
        raise HiddenBankError(f"{path}: {where} must be a list of non-empty strings")
    if len({" ".join(s.lower().split()) for s in items}) != len(items):
        raise HiddenBankError(f"{path}: {where} lists the same sentence twice")
    return tuple(items)


def _phrasings(path: str, key: str, items) -> tuple[str, ...]:
    """The need's phrasings, checked for their number and form here; for the phrasing rules (what
    :func:`benchmark.cases.phrasings.checked_bank` checks) when they are first used."""
    from benchmark.cases.needs import HIDDEN, NEEDS, needs_in

    hidden = ", ".join(needs_in(HIDDEN))
    if key not in NEEDS:
        raise HiddenBankError(f"{path}: phrasings for {key!r}, which is not a need; the hidden needs are {hidden}")
    if NEEDS[key].bank != HIDDEN:
        raise HiddenBankError(
            f"{path}: phrasings for {key!r}, a public need: public releases ask for it, so a hidden release never "
            f"does; the hidden needs are {hidden}"
        )
    found = _sentences(path, f"the phrasings of {key}", items)
    if len(found) < MIN_PHRASINGS:
        raise HiddenBankError(f"{path}: {key} has {len(found)} phrasings; a bank needs at least {MIN_PHRASINGS}")
    return found


def _wordings(path: str, name: str, items) -> tuple[str, ...]:
    banks = wording_banks()
    if name not in banks:
        raise HiddenBankError(
            f"{path}: no wording bank {name!r}; the banks are module.NAME under benchmark/cases/engine/wording/ "
            f"(e.g. {', '.join(sorted(banks)[:3])}; {len(banks)} in all)"
        )
    found = _sentences(path, f"the wording bank {name}", items)
    allowed = set().union(*(_slots(s) for s in banks[name]))
    required = set.intersection(*(_slots(s) for s in banks[name]))
    for sentence in found:
        try:
            slots = _slots(sentence)
        except ValueError as exc:
            raise HiddenBankError(f"{path}: {name}: {sentence!r} is not a template ({exc})") from None
        if slots - allowed:
            raise HiddenBankError(
                f"{path}: {name}: {sentence!r} uses {', '.join(sorted(slots - allowed))}; "
                f"this bank's sentences may use {', '.join(sorted(allowed)) or 'no slot'}"
            )
        if required - slots:
            raise HiddenBankError(
                f"{path}: {name}: {sentence!r} leaves out {', '.join(sorted(required - slots))}, which every "
                "sentence of this bank states (the verifier refuses a question that does not say it)"
            )
    return found


def _slots(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@cache
def wording_banks() -> dict[str, tuple[str, ...]]:
    """Every wording bank of ``engine/wording/`` by name ("nearby.NEED_ANY", "place.L0.address")."""
    from benchmark.cases.engine.wording import nearby, place, routing, trip

    banks: dict[str, tuple[str, ...]] = {}
    for module in (nearby, place, routing, trip):
        short = module.__name__.rsplit(".", 1)[1]
        for attr, value in vars(module).items():
            if not attr.isupper():
                continue
            if isinstance(value, tuple) and value and all(isinstance(s, str) for s in value):
                banks[f"{short}.{attr}"] = value
            elif isinstance(value, dict):
                for key, sub in value.items():
                    if isinstance(sub, tuple) and sub and all(isinstance(s, str) for s in sub):
                        banks[f"{short}.{attr}.{key}"] = sub
    return banks


def bank_name(sentences: tuple[str, ...]) -> str | None:
    """The name of the wording bank these sentences are (by identity), None for any other tuple."""
    names = _by_identity()
    return names.get(id(sentences))


@cache
def _by_identity() -> dict[int, str]:
    return {id(sentences): name for name, sentences in wording_banks().items()}
