"""Who posts: the handles notes and comments are signed with (visible to agents, like RedNote's nicknames).

The evidence rule counts authors (two different people must back a fact), so handles are
what an agent reads to tell one enthusiastic regular posting twice from two independent
visitors. Residents and visitors come from one city-wide pool; a place that advertises
posts under its own account; spam comes from throwaway accounts.
"""

from __future__ import annotations

import random
import re
import unicodedata

_FIRST = (
    "aino",
    "aleksi",
    "anna",
    "antti",
    "eero",
    "elina",
    "emma",
    "helmi",
    "iida",
    "ilkka",
    "jaakko",
    "janne",
    "joni",
    "juho",
    "julia",
    "kaisa",
    "kalle",
    "katja",
    "lauri",
    "leena",
    "liisa",
    "lotta",
    "maija",
    "marko",
    "matti",
    "mikko",
    "minna",
    "niko",
    "noora",
    "oona",
    "otto",
    "paula",
    "pekka",
    "petra",
    "riikka",
    "sami",
    "sanna",
    "sara",
    "satu",
    "sofia",
    "teemu",
    "tiina",
    "timo",
    "tuomas",
    "ville",
    "aada",
    "onni",
    "venla",
    "eetu",
    "jenni",
    "henri",
    "alex",
    "ben",
    "chloe",
    "daniel",
    "elena",
    "farah",
    "gabriel",
    "hana",
    "ibrahim",
    "jun",
    "kenji",
    "lena",
    "lucas",
    "maria",
    "mei",
    "nadia",
    "oscar",
    "priya",
    "rahul",
    "sofie",
    "tom",
    "yusuf",
    "zara",
    "ana",
    "carlos",
    "diego",
    "emil",
    "fatima",
    "hugo",
    "ines",
    "ivan",
    "jonas",
    "karin",
    "leo",
    "mila",
    "nora",
    "olga",
    "pablo",
    "rosa",
    "samir",
    "tara",
    "uma",
    "wei",
    "yara",
)
_SURNAME_INITIALS = "abdeghijklmnoprstuvwy"
_WORDS = (
    "eats",
    "coffee",
    "travels",
    "hki",
    "helsinki",
    "nordic",
    "bakes",
    "walks",
    "reads",
    "runs",
    "sauna",
    "snaps",
    "foodie",
    "bites",
    "dailylife",
    "explores",
    "wanders",
    "tastes",
    "goes",
    "sips",
    "notes",
    "diary",
    "finds",
)
_SPAM_WORDS = ("deals", "promo", "crypto", "followers", "winbig", "giveaway", "cheapflights", "bonus")


def _handle(rng: random.Random) -> str:
    first = rng.choice(_FIRST)
    style = rng.randrange(6)
    if style == 0:
        return f"{first}.{rng.choice(_SURNAME_INITIALS)}"
    if style == 1:
        return f"{first}_{rng.choice(_WORDS)}"
    if style == 2:
        return f"{first}{rng.randint(70, 99)}"
    if style == 3:
        return f"{first}.{rng.choice(_WORDS)}.{rng.randint(1, 99)}"
    if style == 4:
        return f"{rng.choice(_WORDS)}_with_{first}"
    return f"{first}_{rng.choice(_SURNAME_INITIALS)}{rng.randint(1, 999)}"


def author_pool(rng: random.Random, size: int) -> tuple[str, ...]:
    """``size`` distinct handles, in a fixed order for the stream ``rng``."""
    seen: dict[str, None] = {}
    while len(seen) < size:
        seen.setdefault(_handle(rng))
    return tuple(seen)


def place_account(name: str) -> str:
    """The handle a place posts its adverts under: ``kahvila_sininen_official``."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "_", folded).strip("_")[:24].strip("_") or "place"
    return f"{slug}_official"


def spam_account(rng: random.Random) -> str:
    return f"{rng.choice(_SPAM_WORDS)}_{rng.randint(1000, 99999)}"
