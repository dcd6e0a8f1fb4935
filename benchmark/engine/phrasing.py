"""Question phrasing: varied templates and personas. Place names stay as in the city's data."""
from __future__ import annotations

import random

PERSONAS = (
    "", "", "",  # plain questions are common too
    "I'm visiting Helsinki for the first time. ",
    "My parents are in town this weekend. ",
    "Quick question before I head out. ",
    "I'm a student on a tight budget. ",
    "I'm showing a colleague around the centre today. ",
    "I just moved to Helsinki. ",
    "Planning my day off. ",
    "I'm meeting a friend later. ",
)

VEHICLE_WORDS = {
    "walking": ("walking", "on foot", "walking"),
    "cycling": ("cycling", "by bike", "cycling"),
    "driving": ("driving", "by car", "by car"),
}
MODE_WORDS = {"time": ("fastest", "quickest"), "distance": ("shortest",)}


def persona(rng: random.Random) -> str:
    return rng.choice(PERSONAS)


def pick(rng: random.Random, *options: str) -> str:
    return rng.choice(options)


def join_names(names: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def join_or(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


def vehicle_phrase(rng: random.Random, vehicle: str) -> str:
    return rng.choice(VEHICLE_WORDS[vehicle])


def mode_phrase(rng: random.Random, mode: str) -> str:
    return rng.choice(MODE_WORDS[mode])


def finish(text: str) -> str:
    """Collapse spaces and capitalise the first letter."""
    text = " ".join(text.split())
    return text[:1].upper() + text[1:]


def plural(noun: str) -> str:
    """English plural of the last word: 'library' -> 'libraries', 'bus station' -> 'bus stations'."""
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    if noun.endswith(("s", "sh", "ch", "x")):
        return noun + "es"
    return noun + "s"


def noun_case(words: str) -> str:
    """Lower-case a type name but keep nationality words capitalised ('Finnish restaurant')."""
    keep = ("ish", "ese", "ian", "can", "ean", "Thai")
    return " ".join(w if w.endswith(keep) else w.lower() for w in words.split())


def ask(rng: random.Random, template: str, *, vehicle: str | None = None, mode: str | None = None,
        **fields: object) -> str:
    """A question from ``template`` with a persona; ``vehicle`` fills {v} ("by bike") and {vi}
    ("cycling"), ``mode`` fills {m} ("fastest") and {M} ("Fastest")."""
    if vehicle:
        fields.update(v=vehicle_phrase(rng, vehicle), vi=vehicle)
    if mode:
        m = mode_phrase(rng, mode)
        fields.update(m=m, M=m.capitalize())
    return finish(persona(rng) + template.format(**fields))
