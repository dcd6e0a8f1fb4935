"""Need phrasings: how a user hints at a hidden social fact without naming it (level L2).

For every need (:mod:`benchmark.cases.needs`) ``PHRASINGS`` holds twelve infinitive verb
phrases that fit after "I want to ..." or "I'd like to ..." (lower-case start, no final
punctuation), e.g. for quiet enough to study "revise for my exams somewhere hushed for the whole
afternoon". No phrasing contains the fact's label, its key read as words, or any of its
evidence words: the fact has to be inferred (``tests/cases/test_phrasings.py``).

A phrasing that fits only some of the kinds the fact fits starts with them in brackets
("[beauty] explain exactly what haircut I want without miming it"); it is used only for a place
of one of those kinds.

**Two banks.** Each need belongs to one bank (``Need.bank``, :mod:`benchmark.cases.needs`):
public releases ask only for the public needs, in the phrasings written here, and hidden releases
only for the hidden needs, in the operator's hidden bank (:mod:`.hidden_bank`) where it phrases
them, else in the phrasings written here (the example hidden bank). So no need, and no phrasing,
is shared by a public and a hidden release.
"""

from __future__ import annotations

import re

from .hidden_bank import HiddenBank, HiddenBankError, hidden_bank
from .needs import BANKS, HIDDEN, PUBLIC, need_of

PHRASINGS: dict[str, tuple[str, ...]] = {
    "quiet_for_studying": (
        "revise for my exams somewhere hushed for the whole afternoon",
        "finish a thesis chapter without chatter distracting me",
        "cram for tomorrow's test in a place where nobody raises their voice",
        "read through my lecture notes somewhere hushed where I can actually concentrate",
        "write my essay in peace with my laptop and a pot of tea",
        "prepare for a job interview somewhere I can hear myself think",
        "do some focused revision where people keep their voices down",
        "work through a pile of textbooks with no loud music or clattering around me",
        "get stuck into my coursework over a cappuccino without noisy crowds around me",
        "find a peaceful corner to memorise vocabulary for my language exam",
        "concentrate on my dissertation without being distracted by loud groups",
        "learn my lines for a play somewhere nobody is blasting music",
    ),
    "great_latte_art": (
        "sip a cappuccino with a pretty rosetta poured into the foam",
        "get a milky espresso with a little heart drawn in the microfoam",
        "admire a swan poured into the milk of my coffee before I drink it",
        "watch someone pour a fern pattern into my cappuccino",
        "photograph a perfect milk-foam swan on my coffee for Instagram",
        "get a cappuccino with a tulip so neat it's a shame to drink it",
        "order a milky espresso topped with a little foam bear",
        "treat my girlfriend to a cappuccino with a foamy rose poured on top",
        "see skilled pouring turn steamed milk into tiny works of art",
        "pick up a few milk-pouring tricks from someone who can draw a phoenix in a mocha",
        "get a cortado with foam patterns sharp enough to post online",
        "compare how neatly different cafes pour hearts into their milky coffees",
    ),
    "fresh_pastries": (
        "have a warm, flaky viennoiserie that was dough an hour ago",
        "grab a buttery morning bun that hasn't had time to cool",
        "eat flaky, buttery treats made on site that morning",
        "get a pain au chocolat that's barely cooled and shatters into crumbs at the first mouthful",
        "pick up a box of just-made Danishes to take to the office",
        "smell butter and dough coming out of the ovens as I walk in",
        "treat my visiting sister to flaky French-style treats made on the premises",
        "tear into a warm almond twist that's only just come out of the oven",
        "choose from a tray of glossy, just-out-of-the-oven viennoiseries",
        "bite into flaky, buttery layers that were rolled and shaped in the back room just before I arrived",
        "have a crisp, golden apple turnover that hasn't been sitting in a display case",
        "bag something crackly and buttery right off the baker's tray",
    ),
    "huge_cinnamon_buns": (
        "eat a cardamom-and-cinnamon pastry as big as a side plate",
        "try a giant Finnish 'slapped ear' pastry with the sugar still crackling",
        "have an enormous cinnamon-sugar swirl with my coffee",
        "tear into a giant cardamom-spiced swirl that's bigger than my hand",
        "share one enormous sugary spiral pastry between the two of us because it's that big",
        "treat my visiting friend to a Finnish spiced pastry the size of a side plate",
        "get a massive, sticky spiced swirl with nibs of white sugar on top",
        "try the classic Finnish cardamom pastry in a really oversized version",
        "bite into a gigantic buttery spiral of dough, sugar and warm spice",
        "fill up on a single colossal sweet pastry instead of a proper lunch",
        "photograph a comically large spiced pastry for my food blog before devouring it",
        "order a spice-swirled pastry so big I'll need a box to take half of it home",
    ),
    "great_cocktails": (
        "sip a perfectly balanced negroni or something inventive shaken to order",
        "have a few well-made mixed drinks with smoked garnishes",
        "try a signature gin creation from someone who has mastered the shaker",
        "order an expertly stirred dry martini with a twist",
        "taste a house creation mixing Nordic berries and aquavit",
        "watch someone behind the bar shake up a foamy whisky sour with real egg white",
        "take my friend out for an inventive, beautifully garnished mixed drink",
        "let the staff behind the bar invent a drink just for me based on my taste",
        "treat myself to a smoky mezcal creation served over a crystal-clear ice block",
        "enjoy a properly balanced old fashioned from someone who truly masters their spirits",
        "celebrate a promotion with a round of creative shaken drinks",
        "work through a list of signature concoctions, each with its own story",
    ),
    "generous_portions": (
        "eat until I'm properly stuffed after a long hike",
        "get a heaping plate that will keep me going for the whole day",
        "have a hearty meal with more food than I can finish",
        "get a plate so big I'll need a doggy bag to take the rest home",
        "fill up my hungry teenage sons without ordering three mains each",
        "get real value for money with a mountain of chips next to my burger",
        "feed two people from one order to save a bit of money",
        "refuel after a long bike ride with a meal that actually fills me up",
        "order one main and leave properly full, no sides needed",
        "have a burger so massive I can barely get my hands around it",
        "take my always-starving rugby mates somewhere they won't leave hungry",
        "tuck into a heaped bowl of pasta that could feed a small family",
    ),
    "salmon_soup": (
        "warm up with a creamy Finnish fish chowder and a slice of dark sourdough",
        "eat a bowl of milky salmon-and-potato stew with dill",
        "have a bowl of dill-scented creamy fish broth like a Finnish grandmother makes",
        "have a hot bowl of pink fish and potato chowder with dill and dark rye",
        "try the classic Finnish fish broth with cream, leeks and chunks of potato",
        "warm my frozen hands around a bowl of Nordic fish chowder after a walk by the harbour",
        "fill up on a hearty, dill-topped fish and potato stew for a cheap lunch",
        "order a rich bowl of Finnish fish chowder, the kind with pink chunks and cream",
        "take my visiting parents for a bowl of that famous Finnish pink-fish chowder",
        "tuck into a milky fish and potato broth with a slab of buttered rye",
        "slurp a bowl of Finnish-style fish chowder with cream and fresh dill",
        "get a proper taste of Finnish home cooking with a cream-based fish stew",
    ),
    "live_jazz_fridays": (
        "hear a saxophone and double-bass trio improvise on a Friday night",
        "listen to swing and bebop played live on Friday evening",
        "end the week with a live combo playing standards in the corner",
        "hear a trumpeter and a drummer improvise swing standards a few feet from my chair",
        "listen to a quartet play Miles Davis and Coltrane tunes while I have dinner",
        "catch a smoky bebop session with a cocktail in hand",
        "unwind after work to a piano trio working through Ella Fitzgerald standards",
        "take my dad, a big Dizzy Gillespie fan, to hear some improvised horn solos in person",
        "snap my fingers along to a walking bass line and brushed drums",
        "hear a singer croon Gershwin numbers backed by a small combo on stage",
        "soak up some scat singing and sax solos with my partner over a bottle of red",
        "celebrate payday with cocktails and a swinging house band",
    ),
    "lake_sunset_spot": (
        "watch the sky turn orange as the sun goes down over the water",
        "catch the last light of the day from a good spot",
        "[bar restaurant hotel] see the sun sink below the horizon with a drink in hand",
        "photograph the sky going pink and purple as the sun dips below the horizon",
        "propose to my girlfriend just as the sky goes pink at dusk",
        "[restaurant hotel] have dinner while the sun slips down behind the islands",
        "take moody silhouette photos against a glowing orange sky at dusk",
        "[park] sit on the grass with a friend and watch the last rays of the day paint the clouds",
        "[park] see the sun melt into the horizon from a bench by the shore",
        "[hotel] end a long sightseeing day watching the sky blaze red from a hotel balcony",
        "catch that warm, soft light photographers love just before the sun disappears",
        "[bar restaurant hotel] toast the end of the day with a cocktail as the sun goes down over the bay",
    ),
    "great_view": (
        "look out over the harbour and the islands from where I sit",
        "see the city's rooftops and church domes spread out below me",
        "[restaurant hotel bar cafe] have dinner looking out across the water to the islands",
        "take in the skyline with my visiting parents",
        "[museum park] show my friend the harbour and the ferries from up high",
        "snap photos of the cathedral's green dome from a spot with a clear outlook",
        "[cafe restaurant bar hotel] gaze over the roofs to the sea while I have a coffee",
        "see how far the city stretches when the weather is bright",
        "[cafe restaurant bar hotel] sit by a window that looks out over the water",
        "[park museum] climb up somewhere and take in all of downtown at once",
        "impress my date with the sight of the harbour lights",
        "watch the ferries cross the bay from my seat",
    ),
    "red_squirrels": (
        "feed hazelnuts to the little russet tree critters with tufted ears",
        "spot some bushy-tailed ginger rodents darting up the pine trees",
        "watch little red-furred tree climbers nibble on nuts",
        "watch little red acrobats with bushy tails leap between the pine branches",
        "hold out a hazelnut and see if a rusty-coloured tree climber dares to grab it",
        "show my kids the ear-tufted critters that bury nuts in the moss",
        "photograph a ginger-furred nut hoarder up close with my zoom lens",
        "sit on a bench and watch orange-furred tree-dwellers chase each other round a trunk",
        "bring a bag of peanuts for the cheeky russet climbers that come right up to you",
        "make my toddler giggle at fluffy-tailed critters burying acorns in the grass",
        "count how many tufted red furballs I can spot scampering up a single spruce",
        "have a tame little forest rodent with a bushy tail take seeds from my palm",
    ),
    "phone_repair_while_you_wait": (
        "get my cracked phone screen replaced on the spot",
        "have my broken phone sorted while I grab a coffee nearby",
        "get a new battery put in my phone and walk out with it the same hour",
        "get my smashed screen swapped and leave with the handset before my coffee goes cold",
        "have a fresh battery fitted in my mobile on the spot",
        "get my cracked display replaced right there at the counter",
        "stand by and watch a technician replace my broken charging port",
        "have my dropped mobile brought back to life in one visit",
        "get the shattered back glass on my mobile sorted before my bus leaves",
        "get a water-damaged handset sorted without leaving it with them for days",
        "pop in with a mobile that refuses to charge and leave with it working again",
        "have my tablet's cracked glass swapped so I can take it straight home",
    ),
    "english_speaking_staff": (
        "get things explained to me clearly even though I don't speak a word of Finnish",
        "[pharmacy clinic] describe my symptoms to someone who understands me without typing into my phone",
        "[bank] open an account with staff who can walk a newcomer through the forms in a language I follow",
        "[beauty] explain exactly what haircut I want without miming it",
        "be served by someone at ease with foreigners who only know a few words of Finnish",
        "[hotel] stay somewhere the reception chats easily with international guests",
        "[optician] have my eye test without struggling through instructions in Finnish",
        "sort out my errand as a newly arrived expat with no Finnish or Swedish",
        "[pharmacy] get advice on cold medicine without a language barrier",
        "[public] deal with some paperwork where the clerks happily switch languages for newcomers",
        "bring my visiting parents, who speak no Finnish, somewhere they can ask questions themselves",
        "[beauty] have a relaxed chat with whoever does my nails, though my Finnish is hopeless",
    ),
    "winter_terrace_heaters": (
        "sit outdoors in the cold with a mulled wine and still stay toasty",
        "have my coffee outside in the frosty air without freezing",
        "enjoy a glögi in the open air, warmed by glowing lamps overhead",
        "have drinks outside in the freezing air with something warm glowing over our table",
        "stay out in the open air with a hot chocolate and keep warm while the frost bites",
        "[bar restaurant hotel] have a beer outdoors below zero, with warmth from above",
        "get some crisp fresh air outside over a hot drink without my fingers going numb",
        "snuggle up under a fleece and sip something hot outdoors",
        "[restaurant hotel] eat outside in the snow, kept warm by glowing lamps",
        "take my visiting friend to sit outdoors in the freezing air the Finnish way, but warmly",
        "have a cosy outdoor drink even though it's minus five",
        "people-watch from an outside table on a cold day without shivering",
    ),
    "good_for_groups": (
        "celebrate my birthday with a dozen colleagues all in one place",
        "take the whole football team out after the match without splitting up",
        "bring twelve people along for a farewell party and all sit together",
        "organise a night out for my entire office",
        "have a stag do with eleven mates without being squeezed apart",
        "[restaurant] seat my whole extended clan of fifteen around one long table",
        "get a dozen classmates in for a reunion without anyone left standing",
        "[bar nightclub] toast a colleague's leaving do with the whole department",
        "[hotel] put up a touring choir of fifteen under one roof",
        "[gym] bring my whole running club along for a session",
        "host a team outing for fifteen people who all want to stay together",
        "[venue] bring a busload of classmates to a show and get seated as one party",
    ),
    "knowledgeable_staff": (
        "get real, informed guidance from the staff before I decide",
        "ask detailed questions and get answers from people who truly understand their trade",
        "[bookshop music_shop food_shop shop big_store] be guided by someone who really understands what's on sale",
        "[pharmacy] ask which cold remedy is safe to take with my other pills",
        "[bookshop] get a tailored reading recommendation from someone who has read half the stock",
        "[museum] have the guides answer my detailed questions about the collection",
        "[optician] get proper guidance on which lenses suit my eyesight",
        "[tech_shop] have someone talk me through which laptop fits my budget and needs",
        "[gear_shop] get fitted for hiking boots by someone who really understands feet",
        "[music_shop] be steered to the right guitar strings by someone who plays",
        "[beauty] have my skin assessed properly before choosing a treatment",
        "[workshop] have a craftsman recommend the right repair rather than sell me something new",
    ),
    "peaceful_nature": (
        "get my thoughts in order somewhere calm and green, far from engine noise",
        "sit on a bench and hear nothing but leaves rustling",
        "meditate outdoors without sirens and crowds around me",
        "take a slow stroll to unwind after a stressful day",
        "find a still spot in the city to gather my thoughts",
        "read a book outdoors where the loudest sound is the wind",
        "spend some calm time alone with my thoughts among the trees",
        "recover from a noisy week somewhere soothing and green",
        "[monument] pause for a moment of calm reflection away from the bustle",
        "listen to rustling leaves instead of traffic",
        "breathe slowly and let the city's racket fade away",
        "take my visiting grandmother somewhere restful to sit outside",
    ),
    "great_for_dates": (
        "surprise my partner on our anniversary somewhere special",
        "impress someone I've just started seeing",
        "spend an intimate evening with my partner",
        "[restaurant] have a dinner for two that sets the mood for a proposal",
        "go somewhere with a bit of magic for a first meet-up with someone from an app",
        "[bar] share a drink with my sweetheart somewhere that feels special",
        "[park] stroll hand in hand with my partner somewhere lovely",
        "[museum] spend a few hours wandering with my crush and talking",
        "woo the person I'm falling for",
        "[cafe bakery ice_cream] share a sweet treat with my partner somewhere charming",
        "celebrate our first month together somewhere memorable for two",
        "[venue] take my wife out for a night to remember, just the two of us",
    ),
    "kid_friendly_vibe": (
        "bring my toddler along without getting disapproving looks",
        "go out with my two youngsters and feel welcome",
        "take my three-year-old somewhere nobody minds a bit of noise",
        "find room for the pushchair and nobody tutting at a crying baby",
        "[restaurant fast_food cafe] have a meal out where my toddler's mess is shrugged off",
        "[museum] show my young son around without staff shushing him",
        "[library] spend time with my preschooler where little voices are tolerated",
        "[park] let my twins run around somewhere they are welcome",
        "[toy_shop big_store] wander the aisles with a restless toddler without stress",
        "take my niece and nephew out somewhere they are made to feel at home",
        "[gym] bring my little daughter along where young ones are made welcome",
        "[ice_cream cafe] treat my toddlers somewhere that welcomes tiny customers",
    ),
    "cosy_lighting": (
        "hide from the endless winter gloom somewhere glowing and snug",
        "spend a dark evening somewhere softly lit and snug",
        "escape the harsh fluorescent glare of my office somewhere soft and golden",
        "feel snug and sheltered on a gloomy day",
        "[library museum] read somewhere with gentle lamplight rather than bright overhead lights",
        "[restaurant] have dinner by the glow of flickering little flames",
        "[bar] have a nightcap in a dim, golden glow",
        "[hotel] stay somewhere with a snug, glowing lobby to come back to",
        "[cafe bakery] thaw out with a hot drink in a softly glowing corner",
        "shelter from the long Finnish darkness somewhere gently lit",
        "[venue] watch a show in an intimate, dimly glowing hall",
        "unwind under soft, amber lamps instead of bright spotlights",
    ),
    "good_playlist": (
        "hear great tunes in the background while I relax",
        "discover new tracks to add to my own collection",
        "[gym] work out to tracks that actually keep me going",
        "[beauty] get my hair done with a good soundtrack playing",
        "[fashion_shop music_shop] wander the racks while brilliant tracks play",
        "[bar nightclub] dance a little where the DJ's picks are spot on",
        "[cafe bakery] linger over a coffee while someone's excellent taste in tunes fills the room",
        "catch a few tracks I'll want to look up later",
        "[restaurant] have dinner with a soundtrack that sets the right mood",
        "unwind where the background tunes are picked with real taste",
        "nod along to a great soundtrack while I'm there",
        "enjoy a carefully picked soundtrack instead of commercial radio",
    ),
    "photogenic_interior": (
        "take striking pictures of a beautifully styled room for my feed",
        "fill my camera roll with shots of gorgeous decor",
        "find a backdrop stylish enough for my friend's photoshoot",
        "[cafe bakery] snap my coffee against a stunning designer backdrop",
        "[restaurant bar] dine somewhere the decor alone is worth photographing",
        "[hotel] stay somewhere so stylish I'll want to photograph the lobby",
        "[museum] photograph interiors as striking as the exhibits",
        "[fashion_shop design_shop] take outfit pictures against eye-catching interiors",
        "[beauty] get my nails done somewhere so stylish I'll want a selfie",
        "get shots for my travel blog in a space designed to impress",
        "[ice_cream cafe] pose with my treat in a room worth framing",
        "impress my followers with pictures of a strikingly designed space",
    ),
    "fast_service": (
        "be in and out within my short break",
        "get served without a long wait because I'm in a hurry",
        "[pharmacy] collect my prescription without wasting half my break",
        "[bank public] sort out my paperwork without spending ages in line",
        "[restaurant fast_food cafe] grab a bite before my train leaves in twenty minutes",
        "squeeze a visit into a packed schedule without being held up",
        "[beauty] get a trim without sitting around waiting",
        "[bar] get a drink in my hand without elbowing at the counter for ages",
        "[clinic] be seen promptly instead of sitting in a waiting room",
        "[food_shop] pick up a few things and be back out the door in no time",
        "get sorted promptly while the meter on my parking runs",
        "[cafe bakery] get my takeaway order handed over without a long wait before my meeting",
    ),
    "wide_selection": (
        "find exactly the obscure item I'm after without trying five other places",
        "compare dozens of options side by side before I decide",
        "[bookshop] hunt down an out-of-print title among shelves and shelves of books",
        "[fashion_shop] try on lots of styles in my awkward size",
        "[music_shop] browse crates of records until I find something rare",
        "[tech_shop] see every model of a gadget in person before buying",
        "[food_shop] pick up hard-to-find spices from all over the world",
        "[toy_shop] let my nephew pick from aisles and aisles of toys",
        "[gear_shop] kit myself out for a hiking trip with everything under one roof",
        "[cosmetics_shop] find a foundation that actually matches my skin tone",
        "see far more options than the big high-street names carry",
        "track down a very specific gift without settling for second best",
    ),
}


_KINDS = re.compile(r"^\[([a-z_ ]+)\] ")


def phrasing_kinds(phrasing: str) -> tuple[str, tuple[str, ...]]:
    """(the phrasing's text, the place kinds it is limited to; empty: every kind the fact fits)."""
    found = _KINDS.match(phrasing)
    return (phrasing[found.end() :], tuple(found.group(1).split())) if found else (phrasing, ())


def bank_phrasings(key: str, bank: str) -> tuple[str, ...]:
    """The phrasings of a need of ``bank`` (the public need's written here; the hidden need's from the operator's
    hidden bank where it phrases the need, else written here), with their kind marks."""
    if bank not in BANKS:
        raise ValueError(f"unknown phrasing bank {bank!r}; allowed: {', '.join(BANKS)}")
    own = need_of(key).bank
    if own != bank:
        raise ValueError(f"{key} is a {own} need: a {bank} release never asks for it")
    if bank == HIDDEN:
        found = checked_bank(hidden_bank()).phrasings.get(key)
        if found is not None:
            return found
    return PHRASINGS[key]


def checked_bank(bank: HiddenBank) -> HiddenBank:
    """The hidden bank, once its phrasings keep the phrasing rules (:func:`phrasing_problems`) and none is a
    phrasing of a public need; else :class:`HiddenBankError` naming the need, the phrasing and the rule."""
    if bank.source not in _CHECKED:
        public = {
            " ".join(p.lower().split()) for k, items in PHRASINGS.items() if need_of(k).bank == PUBLIC for p in items
        }
        for key, found in bank.phrasings.items():
            for phrasing in found:
                problems = phrasing_problems(key, phrasing)
                if " ".join(phrasing.lower().split()) in public:
                    problems.append("it is in the public bank")
                if problems:
                    raise HiddenBankError(f"{bank.source}: the phrasing {phrasing!r} of {key}: {'; '.join(problems)}")
        _CHECKED.add(bank.source)
    return bank


_CHECKED: set[str] = set()


def phrasing_problems(key: str, phrasing: str) -> list[str]:
    """The rules a phrasing of need ``key`` breaks (empty when it keeps them all): an infinitive phrase that
    fits after "I want to" (lower-case start, no final punctuation, single spaces), an optional kind mark
    among the fact's kinds, never the fact's label, key or evidence words, and no other need's phrasing."""
    from environment.build.corpus.vocab import ALL_SPECS

    spec = ALL_SPECS[key]
    text, kinds = phrasing_kinds(phrasing)
    low = text.lower()
    problems = []
    if text != text.strip() or "  " in text or not text[:1].islower() or text[-1:] in ".!?,;:":
        problems.append("write it lower-case, single-spaced, with no final punctuation")
    if low.startswith(("i ", "to ")) or "{" in text or "[" in text:
        problems.append('it must fit after "I want to" (no "I", no "to", no braces or brackets)')
    if set(kinds) - set(spec.kinds):
        problems.append(f"the kinds {', '.join(sorted(set(kinds) - set(spec.kinds)))} are not among the fact's")
    label = spec.label.split(":", 1)[1].strip().lower()
    named = [w for w in (label, key.replace("_", " "), *(w.lower() for w in spec.evidence)) if w in low]
    if named:
        problems.append(f"it names the fact ({', '.join(repr(w) for w in named)})")
    others = [k for k, items in PHRASINGS.items() if k != key and low in {phrasing_kinds(p)[0].lower() for p in items}]
    if others:
        problems.append(f"it is a phrasing of {', '.join(others)}")
    return problems


# A phrasing that mentions food or drink only fits a place that serves them, one about shopping only a
# shop; one that names a day or a time of day, or a stay ("for hours"), only a question that sets no moment.
FOOD_WORDS = (
    "eat",
    "meal",
    "dinner",
    "lunch",
    "bite",
    "breakfast",
    "brunch",
    "coffee",
    "latte",
    "cappuccino",
    "espresso",
    "drink",
    "cake",
    "tea",
    "pint",
    "beer",
    "wine",
    "sip",
    "plate",
    "menu",
    "dish",
    "food",
    "chocolate",
    "negroni",
    "snack",
    "sandwich",
    "table",
    "pastry",
    "ale",
    "stout",
    "cocktail",
)
SHOP_WORDS = ("shop", "buy", "browse", "shelf", "purchase", "bookstore")
TIME_WORDS = (
    "morning",
    "evening",
    "night",
    "tonight",
    "tomorrow",
    "today",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "weekend",
    "january",
    "february",
    "november",
    "winter",
    "afternoon",
    "midday",
    "noon",
    "o'clock",
    "week",
    "hour",
    "midnight",
)
# A stay the place must be open for: the phrase and the minutes it asks (checked, when a question sets
# a moment, for the whole stay and not only on arrival).
STAYS = (
    ("for hours", 120),
    ("a few hours", 120),
    ("all afternoon", 180),
    ("the whole afternoon", 180),
    ("for the afternoon", 180),
    ("the whole day", 360),
    ("all day", 360),
    ("for an hour", 60),
    ("an hour", 60),
)


_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "my",
        "me",
        "i",
        "is",
        "it",
        "its",
        "it's",
        "be",
        "are",
        "was",
        "were",
        "this",
        "that",
        "these",
        "those",
        "some",
        "any",
        "from",
        "by",
        "as",
        "up",
        "down",
        "out",
        "over",
        "under",
        "into",
        "onto",
        "about",
        "while",
        "where",
        "when",
        "what",
        "which",
        "who",
        "how",
        "so",
        "very",
        "just",
        "too",
        "than",
        "then",
        "there",
        "their",
        "them",
        "they",
        "we",
        "our",
        "us",
        "you",
        "your",
        "his",
        "her",
        "he",
        "she",
        "him",
        "not",
        "no",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "can",
        "could",
        "would",
        "should",
        "will",
        "may",
        "might",
        "must",
        "am",
        "get",
        "got",
        "let",
    ]
)


def content_pairs(text: str) -> set[tuple[str, str]]:
    """Pairs of consecutive content words (stopwords left out): what reusing a phrase reuses."""
    words = [w for w in re.findall(r"[a-z']+", text.lower().replace("-", " ")) if w not in _STOPWORDS]
    return set(zip(words, words[1:]))


def evidence_reuse(bank: str) -> list[str]:
    """Where a need phrasing of ``bank`` reuses the wording of the evidence of a fact it points to (two consecutive
    content words of the phrasing among that fact's phrases, replies, things, denials, endings or labels), one
    sentence each: a question says "my kid loves blocks and crayons", a note "a corner with toys for the little
    ones". Building a release checks it, so the city build never needs a hidden bank."""
    from benchmark.cases.needs import NEEDS
    from environment.build.corpus.vocab import ALL_SPECS

    problems = []
    for key, need in NEEDS.items():
        if need.bank != bank:
            continue
        for fact in need.satisfied_by:
            spec = ALL_SPECS[fact]
            parts = (*spec.phrases, *spec.comments, *spec.things, *spec.absent, *spec.gone, spec.bare, *spec.labels)
            evidence = set().union(*(content_pairs(part) for part in parts))
            for phrasing in bank_phrasings(key, bank):
                shared = sorted(content_pairs(phrasing_kinds(phrasing)[0]) & evidence)
                if shared:
                    words = ", ".join(" ".join(pair) for pair in shared)
                    problems.append(f"{key}: {phrasing!r} reuses {words!r} from the evidence of {fact}")
    return problems


def mentions(phrase: str, words: tuple[str, ...]) -> bool:
    low = phrase.lower()
    return any(re.search(rf"\b{re.escape(w.strip())}s?\b", low) for w in words)


def stay_minutes(phrase: str) -> int:
    """How long a phrasing says the user will stay (0 when it says nothing of a stay)."""
    low = phrase.lower()
    return max((minutes for words, minutes in STAYS if words in low), default=0)


def fitting_phrases(
    key: str, bank: str, *, kind: str, serves_food: bool, is_shop: bool, timed: bool
) -> tuple[str, ...]:
    """The phrasings (text only) of a need in ``bank`` that fit a place of ``kind`` and the question's moment."""
    out = []
    for phrasing in bank_phrasings(key, bank):
        text, kinds = phrasing_kinds(phrasing)
        if kinds and kind not in kinds:
            continue
        fits = (serves_food or not mentions(text, FOOD_WORDS)) and (is_shop or not mentions(text, SHOP_WORDS))
        if fits and not (timed and (mentions(text, TIME_WORDS) or stay_minutes(text))):
            out.append(text)
    return tuple(out)
