"""Evidence sentences, composed: what a post says about a fact, in one of the evidence rule's stances.

Each sentence is built from parts (what was seen, how it was noticed, when, with whom, a
verdict) drawn from the writer's random stream, so the same fact is reported in many
wordings and an evidence sentence is almost never repeated word for word. No sentence
quotes a fact's label or key; each holds one of its evidence words (the parts do), so a
keyword search finds supporting and decoy posts alike, and only reading tells them apart.

A ``Say`` function takes the random stream and the fact (and for some stances another
place's name or a date span) and returns one sentence.
"""

from __future__ import annotations

import random
from datetime import date

from .fact_spec import FactSpec
from .text import spoken_dates

WHEN = (
    "Last Saturday",
    "On Tuesday",
    "A couple of weeks ago",
    "This spring",
    "In March",
    "On a rainy afternoon",
    "Yesterday",
    "On my last visit",
    "Over the holidays",
    "Earlier this month",
    "The other day",
    "On our second visit",
    "After work on Friday",
    "Around lunchtime",
    "Early on Sunday",
    "Last time I was in town",
    "During the autumn break",
    "On a grey Monday",
    "Just before closing",
    "On my birthday",
    "Back in January",
    "When my parents visited",
)
WITH = (
    "my sister",
    "my flatmate",
    "a colleague",
    "my partner",
    "the kids",
    "my parents",
    "two friends from uni",
    "my book club",
    "my neighbour",
    "my cousin from Tampere",
    "the whole team",
    "my mum",
    "an old school friend",
    "my exchange buddy",
    "my grandad",
    "my running group",
)
NOTICED = (
    "we found",
    "we noticed",
    "we spotted",
    "I was happy to find",
    "we discovered",
    "we made good use of",
    "we were pleasantly surprised by",
    "we couldn't miss",
    "we ended up enjoying",
    "we stumbled on",
)
VERDICT = (
    "which made the visit",
    "such a nice touch",
    "exactly what we needed",
    "definitely coming back for that",
    "ten out of ten for that alone",
    "honestly the highlight",
    "didn't expect that at all",
    "worth the walk",
    "a big plus in my book",
    "love it",
    "made my day",
    "a lovely surprise",
    "more places should do this",
    "it really sets the place apart",
)
GRUMBLE = (
    "which spoiled it a bit",
    "not great",
    "fair warning",
    "a real shame",
    "hope they fix it",
    "minus one star for that",
    "just so you know",
    "kind of annoying",
    "take it into account",
    "not what we hoped for",
)
ENDED_WHEN = (
    "in the spring",
    "last autumn",
    "after the summer",
    "in January",
    "earlier this year",
    "when they renovated",
    "after the change of owners",
    "a few months back",
    "over the summer break",
    "at the start of the year",
    "when the lease changed",
    "before Christmas",
)
HEADS_UP = ("", "Heads up: ", "Don't miss it: ", "Mark your calendars – ", "FYI ", "Good to know: ", "Noted! ", "PSA: ")
SIGN_OFF = (
    ".",
    "!",
    ", see you there.",
    ", can't wait.",
    " – booking now.",
    ", tell your friends.",
    " 🎉",
    ", who's in?",
)
DISAGREE = ("Hmm, ", "Not my experience: ", "Honestly ", "Have to disagree, ", "Really? ", "Mixed feelings: ", "")
AUDIENCE = (
    "anyone planning a visit",
    "newcomers",
    "the people asking below",
    "everyone who loved it",
    "my followers",
    "fellow regulars",
    "visiting friends",
    "the weekend crowd",
)
SHAME = (
    "it was the reason we came",
    "we'll see if it comes back",
    "the place feels different now",
    "I miss it already",
    "still a nice spot otherwise",
    "it was half the charm",
    "the staff seemed sad about it too",
)
REPLY = ("Can confirm", "Same here", "Went recently and yes", "Agree", "Yes", "True", "Seconding this", "Exactly")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _low(text: str) -> str:
    """The first letter in lower case, unless the first word is an acronym ("HSL", "IPA")."""
    first = text.split(" ", 1)[0]
    return text if len(first) > 1 and first.isupper() else text[:1].lower() + text[1:]


def _verdict(rng: random.Random, spec: FactSpec) -> str:
    return rng.choice(GRUMBLE if spec.bad else VERDICT)


def _when(rng: random.Random) -> str:
    return rng.choice(WHEN)


# ------------------------------------------------------------------ stances that count


def supports(rng: random.Random, spec: FactSpec) -> str:
    """A first-hand report that the place has it."""
    verdict = _verdict(rng, spec)
    undated = [p for p in spec.phrases if "{" not in p]  # a dated state's phrases need its dates: not here
    if undated and (not spec.things or rng.random() < 0.3):
        phrase = rng.choice(undated).rstrip(".!")
        frame = rng.randrange(3)
        if frame == 0:
            return f"{_when(rng)}, {_low(phrase)} – {verdict}."
        if frame == 1:
            return f"{phrase}, {_low(_when(rng))}. {_cap(verdict)}!"
        return f"{phrase} ({_low(_when(rng))}), {verdict}."
    thing = rng.choice(spec.things)
    frame = rng.randrange(6)
    if frame == 0:
        return f"{_when(rng)} with {rng.choice(WITH)} {rng.choice(NOTICED)} {thing} – {verdict}."
    if frame == 1:
        return f"Came here with {rng.choice(WITH)} and {rng.choice(NOTICED)} {thing}, {verdict}."
    if frame == 2:
        return f"They have {thing}, {verdict} ({_low(_when(rng))})."
    if frame == 3:
        return f"Big plus {_low(_when(rng))}: {thing}. {_cap(verdict)}."
    if frame == 4:
        return f"{_when(rng)} {rng.choice(NOTICED)} {thing}. {_cap(verdict)}!"
    return f"Went with {rng.choice(WITH)} {_low(_when(rng))}: {thing}, {verdict}."


def supports_comment(rng: random.Random, spec: FactSpec) -> str:
    """A reply that backs the fact from the commenter's own visit."""
    if not spec.things or rng.random() < 0.35:
        text = _low(rng.choice(spec.comments).rstrip(".!"))
        frame = rng.randrange(3)
        if frame == 0:
            return f"{rng.choice(REPLY)}, {text} – {_low(_when(rng))} with {rng.choice(WITH)}"
        if frame == 1:
            return f"{_cap(text)} ({_low(_when(rng))}), {_verdict(rng, spec)}"
        return f"{rng.choice(REPLY)}: {text}, {_verdict(rng, spec)}"
    thing = rng.choice(spec.things)
    frame = rng.randrange(4)
    if frame == 0:
        return f"{rng.choice(REPLY)}, they have {thing}, {rng.choice(VERDICT)}."
    if frame == 1:
        return f"Was there {_low(_when(rng))}: {thing}, just like you say, {rng.choice(VERDICT)}."
    if frame == 2:
        return f"{rng.choice(REPLY)}! {_cap(_low(_when(rng)))} {rng.choice(WITH)} loved the {spec.bare} too."
    return f"The {spec.bare} is real, {_low(_when(rng))} with {rng.choice(WITH)} we used it."


SOURCE = (
    "",
    "",
    "The staff told us: ",
    "Saw it on their Instagram – ",
    "There's a poster by the till: ",
    "Spotted on the door {when_low}: ",
    "{who} noticed the sign {when_low}: ",
    "Straight from the owner when we chatted {when_low}: ",
    "Their newsletter says it, ",
    "Asked at the counter {when_low} and yes: ",
    "Word from the barista: ",
    "Read it on the board outside: ",
)


def announces(rng: random.Random, phrase: str) -> str:
    """A dated state announced ahead (a short-term fact's own phrase, its dates already spoken), with how the
    poster learned of it."""
    source = rng.choice(SOURCE).format(when_low=_low(_when(rng)), who=_cap(rng.choice(WITH)))
    body = phrase.rstrip(".!")
    body = _low(body) if source else body
    return f"{rng.choice(HEADS_UP) if not source else ''}{source}{body}{rng.choice(SIGN_OFF)}"


def disagrees(rng: random.Random, contra: str) -> str:
    """Someone whose visit contradicts an impression (facts that are only ever reported, never denied)."""
    return f"{rng.choice(DISAGREE)}{_low(contra)} ({_low(_when(rng))} with {rng.choice(WITH)})"


def dated(rng: random.Random, spec: FactSpec, start: date, end: date, occasion: str) -> str:
    """A report of a state that held only between two dates (a pop-up, a seasonal set-up)."""
    span = spoken_dates(start, end, rng)
    thing = rng.choice(spec.things)
    frame = rng.randrange(3)
    if frame == 0:
        return f"{_cap(span)} they had {thing} set up for {occasion}."
    if frame == 1:
        return f"Only for {occasion} ({span}): {thing}."
    return f"For {occasion} they brought in {thing}, {span}."


# ------------------------------------------------------------------ stances that reset a fact


def negates(rng: random.Random, spec: FactSpec) -> str:
    """A visitor who looked for it and says the place does not have it."""
    frame = rng.randrange(6)
    absent = rng.choice(spec.absent)
    if frame == 0:
        return f"{_when(rng)}: sadly, {absent}."
    if frame == 1:
        return f"Checked {_low(_when(rng))}: {absent}."
    if frame == 2:
        return f"Don't trust the old posts, {absent} ({_low(_when(rng))} with {rng.choice(WITH)})."
    if frame == 3:
        return f"We asked the staff {_low(_when(rng))} and {absent}."
    if frame == 4:
        return f"No {spec.bare} here {_low(_when(rng))}, whatever people claim."
    return f"Zero {spec.bare} in sight when {rng.choice(WITH)} and I went {_low(_when(rng))}."


def ended(rng: random.Random, spec: FactSpec) -> str:
    """A report that it existed and has ended (no negation words: only reading the verb tells)."""
    gone = rng.choice(spec.gone).format(when=rng.choice(ENDED_WHEN))
    frame = rng.randrange(5)
    if frame == 0:
        return f"Heads up for {rng.choice(AUDIENCE)}: {gone}."
    if frame == 1:
        return f"Sad news from {rng.choice(WITH)}'s visit {_low(_when(rng))}: {gone}."
    if frame == 2:
        return f"Update for {rng.choice(AUDIENCE)} reading the older posts: {gone}."
    if frame == 3:
        return f"{_cap(gone)} – such a shame, {rng.choice(SHAME)}."
    return f"Went back {_low(_when(rng))} with {rng.choice(WITH)} and learned that {gone}."


# ------------------------------------------------------------------ stances that never count


def credits(rng: random.Random, spec: FactSpec, other: str) -> str:
    """A comparison that gives the fact to another place, named."""
    frame = rng.randrange(5)
    if frame == 0:
        return f"The {spec.bare} at {other} beats this place by miles."
    if frame == 1:
        return f"If you're after {rng.choice(spec.things)}, walk over to {other} instead."
    if frame == 2:
        return f"Came here hoping for {rng.choice(spec.things)} and ended up at {other} for it."
    if frame == 3:
        return f"Everyone raving about {spec.bare} should head to {other}."
    return f"For {spec.bare}, {other} is the one people mean."


def asks(rng: random.Random, spec: FactSpec) -> str:
    """A question, which is not evidence."""
    frame = rng.randrange(6)
    thing = rng.choice(spec.things)
    if frame == 0:
        return f"Does anyone know if they have {thing}?"
    if frame == 1:
        return f"Is there {thing} here? Planning a visit."
    if frame == 2:
        return f"Quick question: any {spec.bare} here?"
    if frame == 3:
        return f"Do they have {thing}? Asking for a friend."
    if frame == 4:
        return f"Has anyone seen {thing} here lately?"
    return f"Wondering about {spec.bare} here, anyone been?"


def hearsay(rng: random.Random, spec: FactSpec) -> str:
    """A rumour passed on, not seen by the poster."""
    frame = rng.randrange(5)
    thing = rng.choice(spec.things)
    if frame == 0:
        return f"A friend swears there's {thing} here, I didn't see it myself."
    if frame == 1:
        return f"Apparently they have {thing}, though I can't confirm."
    if frame == 2:
        return f"My cousin says they have {thing}, can't say if that's true."
    if frame == 3:
        return f"Heard rumours of {thing} here."
    return f"Someone in a Facebook group mentioned {thing} here, take it with a pinch of salt."


def promo(rng: random.Random, spec: FactSpec, name: str) -> str:
    """The place advertising itself (its own account, marked as an advert)."""
    thing = rng.choice(spec.things)
    frame = rng.randrange(4)
    if frame == 0:
        return f"#ad Come and enjoy {thing} at {name}! Show this post at the counter for a surprise."
    if frame == 1:
        return f"Sponsored: {name} now has {thing}. Book through the link in our bio."
    if frame == 2:
        return f"Paid partnership with {name}: {thing} and more, use code HKI10 for ten percent off."
    return f"Advertisement – {name} welcomes you with {thing}. Follow us for offers!"


def promo_reply(rng: random.Random, spec: FactSpec) -> str:
    return rng.choice(
        (
            f"Thanks for the love! And yes, we have {rng.choice(spec.things)} 😊",
            f"Come and see the {spec.bare} yourself, the offer is on all month!",
            f"We'd love to show you the {spec.bare}, see you soon!",
        )
    )


def spam(rng: random.Random, spec: FactSpec, name: str) -> str:
    """Keyword-stuffed spam that borrows the place's name."""
    frame = rng.randrange(3)
    if frame == 0:
        return f"best {spec.bare} {name} helsinki cheap!!! dm me for crypto tips"
    if frame == 1:
        return f"{name} {spec.bare} {spec.bare} free followers >>> link in bio"
    return f"WIN a trip for two!!! {spec.bare} {name} giveaway, click my profile"
