"""Comments that carry no evidence: reactions, questions about other things, chatter.

Online, "saving this!" is posted a thousand times, so a quarter of reactions are kept short and
repeat; the rest are composed from a reaction, an add-on with its own details (who the commenter
will bring, when, from where) and sometimes a second thought about their plans, which is how
real threads read and keeps most comment texts distinct. Reactions carry no evidence label:
where one happens to use a fact's word ("my study group", "nice photos") it is noise spread
over every place alike, which a reader ignores and a keyword counter does not.
"""

from __future__ import annotations

import random

from .phrasing import COMMENTS_CHATTER, COMMENTS_GENERIC

_WHO = (
    "my sister",
    "my boyfriend",
    "my girlfriend",
    "my mum",
    "my dad",
    "the kids",
    "my flatmate",
    "my colleagues",
    "my book club",
    "my grandma",
    "my best friend",
    "the team",
    "my in-laws",
    "my study group",
    "my neighbour",
    "my cousins",
    "my husband",
    "my wife",
)
_WHEN = (
    "next week",
    "on Friday",
    "this weekend",
    "after my exams",
    "when it gets warmer",
    "before Christmas",
    "in May",
    "next month",
    "on my day off",
    "after work tomorrow",
    "when my parents visit",
    "on Sunday",
    "during the autumn break",
    "for my birthday",
    "before I move away",
)
_SINCE = (
    "spring",
    "last summer",
    "January",
    "forever",
    "I moved here",
    "your last post",
    "the autumn",
    "my first week",
)
_FROM = ("Turku", "Tampere", "Espoo", "Oulu", "Stockholm", "Tallinn", "Vantaa", "Lahti", "Berlin", "Jyväskylä")
_ADDONS = (
    "going with {who} {when}",
    "{who} would love it",
    "adding it to the list for {when}",
    "been meaning to go since {since}",
    "showing this to {who}",
    "need to drag {who} there {when}",
    "my friend from {town} recommended it too",
    "will report back after {when}",
    "we walked past it with {who} and didn't go in",
    "bookmarking for {when}",
    "perfect for when {who} visits from {town}",
    "is it busy {when}?",
    "can I bring {who}?",
    "haven't been since {since}",
    "ok this is the plan for {when}",
    "thanks, {who} was asking for tips",
    "taking {who} {when} for sure",
    "I live around the corner and only found out {when}",
    "saving it for {when} with {who}",
    "visiting from {town} {when}, noted",
)
_PLAIN = (
    "great photos btw",
    "the second picture is my favourite",
    "finally a review that isn't sponsored",
    "love your Helsinki posts",
    "how long did you wait?",
    "did you need to book?",
    "is it ok for a group of six?",
    "can you pay by card?",
)
_PLANS = (
    "the ferry to Suomenlinna",
    "a walk along the shore",
    "the market hall",
    "the tram museum",
    "a concert at Musiikkitalo",
    "the Ateneum",
    "a stroll in Kaivopuisto",
    "the flea market",
    "the design district",
    "a film at Kino Regina",
    "the Oodi library",
    "the harbour sauna boat",
    "the Sibelius monument",
    "the ice hockey game",
    "the old market square",
    "the zoo on Korkeasaari",
)
_SECOND = (
    "then {plan} after",
    "we'll combine it with {plan}",
    "right after {plan}",
    "{who} wants to do {plan} first",
    "maybe before {plan}",
    "and {plan} if the weather holds",
    "since we're doing {plan} anyway",
    "last time we only managed {plan}",
    "it's on the way to {plan}",
    "{who} suggested {plan} too",
)
_EMOJI = ("", "", "", "", " 😍", " 🙌", " ✨", " 👀", " 🥰", " 🙏", "!!", " 💯", " 😊", " 😂", " ❤️")
_CHATTER_TAILS = (
    "anyone else?",
    "classic Helsinki",
    "send help",
    "at least the coffee is good",
    "every single year",
    "so typical",
    "lol",
    "I give up",
    "happened to {who} too",
    "{who} says it's the same in {town}",
    "and it's only going to get worse {when}",
    "tell me about it, same since {since}",
)


def _fill(rng: random.Random, template: str) -> str:
    return template.format(
        who=rng.choice(_WHO),
        when=rng.choice(_WHEN),
        since=rng.choice(_SINCE),
        town=rng.choice(_FROM),
        plan=rng.choice(_PLANS),
    )


def reaction(rng: random.Random) -> str:
    """A reaction to a post: a bare one (these repeat, as online), or one with an add-on and sometimes a second
    thought (these rarely do)."""
    roll = rng.random()
    if roll < 0.2:
        return rng.choice(COMMENTS_GENERIC) + rng.choice(_EMOJI)
    if roll < 0.25:
        return rng.choice(_PLAIN) + rng.choice(_EMOJI)
    addon = _fill(rng, rng.choice(_ADDONS))
    if rng.random() < 0.6:
        addon = f"{addon}, {_fill(rng, rng.choice(_SECOND))}"
    if roll < 0.65:
        return f"{rng.choice(COMMENTS_GENERIC)}, {addon}{rng.choice(_EMOJI)}"
    return f"{addon[:1].upper()}{addon[1:]}{rng.choice(_EMOJI)}"


def chatter_comment(rng: random.Random) -> str:
    base = rng.choice(COMMENTS_CHATTER)
    if rng.random() < 0.35:
        return base + rng.choice(_EMOJI)
    return f"{base}, {_fill(rng, rng.choice(_CHATTER_TAILS))}{rng.choice(_EMOJI)}"
