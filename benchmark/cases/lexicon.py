"""The place nouns questions use, and every place a careful reader would accept for each.

A question that asks for "a bar" is answered by a pub too; "an Asian restaurant" by a sushi
bar; "an art gallery" by a commercial gallery. Each :class:`Noun` says which places it
**accepts** (a gold answer must be one of them) and which it **might** accept (a reader could
argue for them: a nightclub for "a bar", a bakery for "a café", a place whose name says
"bar"). The data engine and the independent verifier both read this table: a gold answer
must beat every accepted and every arguable place, so no reading of the noun changes the
right answer.

Matching looks at the place's sub-type (``"Food & Beverages|Pub"`` -> ``Pub``), the cuisine in
its tag (``"Cuisine: Korean"`` makes a plain Restaurant an Asian restaurant) and its name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from environment.taxonomy import restaurant_subs, serves_meals
from judging.rules import cuisines_of as rule_cuisines
from kernel.text import fold

ACCEPT, MIGHT = "accept", "might"


@dataclass(frozen=True)
class Noun:
    key: str
    singular: str
    plural: str
    accept: frozenset[str]  # sub-types that are this noun
    might: frozenset[str] = frozenset()  # sub-types a reader could also accept
    cuisines: tuple[str, ...] = ()  # folded "Cuisine:" values that make any dining place this noun
    might_cuisines: tuple[str, ...] = ()
    name_words: tuple[str, ...] = ()  # folded words of a place's name that make it arguable
    dining: bool = False  # cuisine tags apply (restaurants of another sub-type can be this noun)

    def match(self, place: dict) -> str | None:
        """ACCEPT, MIGHT or None for a place record (needs place_type, tag and name)."""
        sub = subtype_of(place)
        cuisines = cuisines_of(place) if self.dining or self.cuisines else ()
        if sub in self.accept or (cuisines and serves_meals(sub) and set(cuisines) & set(self.cuisines)):
            return ACCEPT
        if sub in self.might or (cuisines and set(cuisines) & set(self.might_cuisines)):
            return MIGHT
        if self.name_words and _name_has(place.get("name") or "", self.name_words):
            return MIGHT
        return None

    def types(self) -> list[str]:
        """The accepted sub-types, sorted (what a case's constraints list)."""
        return sorted(self.accept)

    def constraint(self) -> dict:
        """What a case's constraints say about the noun, for the grader: the accepted sub-types and, for
        dining nouns, the accepted cuisines (judging.rules.type_matches reads both)."""
        return {"place_types": self.types(), **({"cuisines": list(self.cuisines)} if self.cuisines else {})}

    def article(self) -> str:
        return f"{indefinite(self.singular)} {self.singular}"


def subtype_of(place: dict) -> str:
    return str(place.get("place_type") or "").split("|", 1)[-1].strip()


def top_of(place: dict) -> str:
    return str(place.get("place_type") or "").split("|", 1)[0].strip()


def cuisines_of(place: dict) -> tuple[str, ...]:
    """Folded cuisine values of a place's tag (what the grader reads too)."""
    return rule_cuisines(place.get("tag") or "")


def _name_has(name: str, words: tuple[str, ...]) -> bool:
    folded = fold(name)
    return any(re.search(rf"(?<![a-z]){re.escape(w)}", folded) for w in words)


_VOWEL_SOUND_EXCEPTIONS = {"a": ("uni", "euro", "one", "use", "usu", "ufo"), "an": ("hour", "honest", "heir")}


def indefinite(word: str) -> str:
    """'a' or 'an' for the sound that starts ``word`` ('an Asian', 'a university', 'an hour')."""
    low = word.lower()
    if low.startswith(_VOWEL_SOUND_EXCEPTIONS["an"]):
        return "an"
    if low.startswith(_VOWEL_SOUND_EXCEPTIONS["a"]):
        return "a"
    return "an" if low[:1] in "aeiou" else "a"


def _n(key, singular, plural, accept, might=(), cuisines=(), might_cuisines=(), name_words=(), dining=False):
    return Noun(
        key,
        singular,
        plural,
        frozenset(accept),
        frozenset(might),
        tuple(cuisines),
        tuple(might_cuisines),
        tuple(name_words),
        dining,
    )


_ASIAN = (
    "asian",
    "chinese",
    "japanese",
    "sushi",
    "ramen",
    "thai",
    "vietnamese",
    "korean",
    "nepalese",
    "indian",
    "noodle",
    "dim_sum",
    "pho",
    "tibetan",
    "filipino",
    "indonesian",
    "malaysian",
    "taiwanese",
)
_CAFE_NAMES = ("cafe", "kahvila", "coffee", "kohvik", "espresso", "kaffe")

NOUNS: tuple[Noun, ...] = (
    # --- food and drink -------------------------------------------------------------------
    _n(
        "cafe",
        "café",
        "cafés",
        ["Coffee House", "Coffee Shop"],
        ["Tea Shop", "Bakery", "Confectionery", "Ice Cream Parlour"],
        cuisines=("coffee_shop",),
        name_words=_CAFE_NAMES,
    ),
    _n(
        "bakery",
        "bakery",
        "bakeries",
        ["Bakery"],
        ["Confectionery", "Coffee House", "Coffee Shop"],
        name_words=("bakery", "leipomo", "bageri", "boulangerie", "patisserie"),
    ),
    _n(
        "ice_cream",
        "ice-cream parlour",
        "ice-cream parlours",
        ["Ice Cream Parlour"],
        ["Confectionery", "Coffee House", "Kiosk"],
        cuisines=("ice_cream",),
        name_words=("jaatelo", "gelato", "ice cream"),
    ),
    _n(
        "bar",
        "bar",
        "bars",
        ["Bar", "Pub"],
        ["Nightclub", "Beer Garden", "Brewery"],
        name_words=("bar", "pub", "baari", "olut", "beer", "tavern", "taverna"),
    ),
    _n("pub", "pub", "pubs", ["Pub"], ["Bar", "Beer Garden", "Brewery"], name_words=("pub", "bar", "baari", "olut")),
    _n("nightclub", "nightclub", "nightclubs", ["Nightclub"], ["Bar", "Pub", "Event Venue"], name_words=("club",)),
    _n(
        "restaurant",
        "restaurant",
        "restaurants",
        restaurant_subs(),
        ["Fast Food", "Food Court", "Delicatessen"],
        name_words=("restaurant", "ravintola", "bistro", "brasserie", "kitchen", "grill", "trattoria", "ristorante"),
        dining=True,
    ),
    _n(
        "asian_restaurant",
        "Asian restaurant",
        "Asian restaurants",
        [
            "Asian Restaurant",
            "Chinese Restaurant",
            "Japanese Restaurant",
            "Sushi Restaurant",
            "Thai Restaurant",
            "Vietnamese Restaurant",
            "Nepalese Restaurant",
            "Indian Restaurant",
        ],
        cuisines=_ASIAN,
        dining=True,
        name_words=("sushi", "wok", "thai", "pho", "ramen", "noodle", "dim sum", "curry"),
    ),
    _n(
        "japanese_restaurant",
        "Japanese restaurant",
        "Japanese restaurants",
        ["Japanese Restaurant", "Sushi Restaurant"],
        ["Asian Restaurant"],
        cuisines=("japanese", "sushi", "ramen"),
        dining=True,
        name_words=("sushi", "ramen", "izakaya", "japan"),
    ),
    _n(
        "sushi_restaurant",
        "sushi restaurant",
        "sushi restaurants",
        ["Sushi Restaurant"],
        ["Japanese Restaurant", "Asian Restaurant"],
        cuisines=("sushi",),
        might_cuisines=("japanese",),
        dining=True,
        name_words=("sushi",),
    ),
    _n(
        "chinese_restaurant",
        "Chinese restaurant",
        "Chinese restaurants",
        ["Chinese Restaurant"],
        ["Asian Restaurant"],
        cuisines=("chinese", "dim_sum", "cantonese", "sichuan"),
        might_cuisines=("asian",),
        dining=True,
        name_words=("china", "wok", "dim sum"),
    ),
    _n(
        "thai_restaurant",
        "Thai restaurant",
        "Thai restaurants",
        ["Thai Restaurant"],
        ["Asian Restaurant"],
        cuisines=("thai",),
        might_cuisines=("asian",),
        dining=True,
        name_words=("thai",),
    ),
    _n(
        "vietnamese_restaurant",
        "Vietnamese restaurant",
        "Vietnamese restaurants",
        ["Vietnamese Restaurant"],
        ["Asian Restaurant"],
        cuisines=("vietnamese", "pho"),
        might_cuisines=("asian",),
        dining=True,
        name_words=("pho", "saigon", "hanoi"),
    ),
    _n(
        "indian_restaurant",
        "Indian restaurant",
        "Indian restaurants",
        ["Indian Restaurant"],
        ["Nepalese Restaurant", "Asian Restaurant"],
        cuisines=("indian",),
        might_cuisines=("nepalese", "asian"),
        dining=True,
        name_words=("india", "curry", "tandoor", "masala"),
    ),
    _n(
        "nepalese_restaurant",
        "Nepalese restaurant",
        "Nepalese restaurants",
        ["Nepalese Restaurant"],
        ["Indian Restaurant", "Asian Restaurant"],
        cuisines=("nepalese", "tibetan"),
        might_cuisines=("indian",),
        dining=True,
        name_words=("nepal", "himalaya", "everest", "kathmandu"),
    ),
    _n(
        "italian_restaurant",
        "Italian restaurant",
        "Italian restaurants",
        ["Italian Restaurant"],
        ["Pizzeria"],
        cuisines=("italian",),
        might_cuisines=("pizza",),
        dining=True,
        name_words=("trattoria", "osteria", "ristorante", "pasta", "italia"),
    ),
    _n(
        "pizzeria",
        "pizzeria",
        "pizzerias",
        ["Pizzeria"],
        ["Italian Restaurant"],
        cuisines=("pizza",),
        might_cuisines=("italian",),
        dining=True,
        name_words=("pizza", "pizzeria"),
    ),
    _n(
        "mexican_restaurant",
        "Mexican restaurant",
        "Mexican restaurants",
        ["Mexican Restaurant"],
        [],
        cuisines=("mexican", "tex-mex", "tex_mex"),
        dining=True,
        name_words=("mexic", "taco", "burrito", "cantina"),
    ),
    _n(
        "finnish_restaurant",
        "Finnish restaurant",
        "Finnish restaurants",
        ["Finnish Restaurant"],
        ["Nordic Restaurant"],
        cuisines=("finnish", "regional"),
        might_cuisines=("nordic",),
        dining=True,
    ),
    _n(
        "burger_place",
        "burger place",
        "burger places",
        ["Burger Restaurant"],
        ["Fast Food"],
        cuisines=("burger",),
        dining=True,
        name_words=("burger",),
    ),
    _n(
        "fast_food",
        "fast-food place",
        "fast-food places",
        ["Fast Food", "Burger Restaurant", "Kebab Restaurant"],
        ["Pizzeria", "Food Court"],
        cuisines=("burger", "kebab", "hot_dog", "fast_food"),
        dining=True,
    ),
    _n(
        "vegetarian_restaurant",
        "vegetarian restaurant",
        "vegetarian restaurants",
        ["Vegetarian Restaurant", "Vegan Restaurant"],
        [],
        cuisines=("vegetarian", "vegan"),
        dining=True,
    ),
    # --- staying ----------------------------------------------------------------------------
    _n(
        "hotel",
        "hotel",
        "hotels",
        ["Hotel"],
        ["Hostel", "Guest House", "Motel", "Apartment"],
        name_words=("hotel", "hotelli"),
    ),
    _n("hostel", "hostel", "hostels", ["Hostel"], ["Hotel", "Guest House"], name_words=("hostel",)),
    # --- shops ------------------------------------------------------------------------------
    _n(
        "clothes_shop",
        "clothes shop",
        "clothes shops",
        ["Clothing Store"],
        ["Department Store", "Second-hand Store", "Shopping Mall"],
    ),
    _n(
        "shoe_shop",
        "shoe shop",
        "shoe shops",
        ["Shoe Store"],
        ["Department Store", "Sports Store", "Clothing Store"],
        name_words=("kenka", "shoe", "sko"),
    ),
    _n(
        "jewellery_shop",
        "jewellery shop",
        "jewellery shops",
        ["Jewellery Store", "Watch Store", "Jeweller"],
        ["Gift Shop"],
        name_words=("kulta", "jewel", "koru"),
    ),
    _n("optician", "optician", "opticians", ["Optician"], [], name_words=("optik", "optic", "silmalasi")),
    _n(
        "bookshop",
        "bookshop",
        "bookshops",
        ["Bookstore"],
        ["Second-hand Store", "Department Store"],
        name_words=("kirja", "book", "antikvariaatti", "bok"),
    ),
    _n(
        "supermarket",
        "supermarket",
        "supermarkets",
        ["Supermarket"],
        ["Grocery Store", "Convenience Store", "Department Store"],
        name_words=("k-market", "s-market", "k-supermarket", "alepa", "lidl", "prisma", "k-citymarket"),
    ),
    _n(
        "convenience_store",
        "convenience store",
        "convenience stores",
        ["Convenience Store"],
        ["Kiosk", "Supermarket", "Grocery Store"],
        name_words=("k-market", "alepa", "r-kioski", "7-eleven"),
    ),
    _n("kiosk", "kiosk", "kiosks", ["Kiosk"], ["Convenience Store"], name_words=("kioski", "kiosk")),
    _n("pharmacy", "pharmacy", "pharmacies", ["Pharmacy"], [], name_words=("apteekki", "pharmacy", "apotek")),
    _n("florist", "florist", "florists", ["Florist"], [], name_words=("kukka", "flower", "blom")),
    _n("gift_shop", "gift shop", "gift shops", ["Gift Shop"], ["Art Shop", "Toy Store", "Variety Store"]),
    _n(
        "furniture_shop",
        "furniture shop",
        "furniture shops",
        ["Furniture Store"],
        ["Home Decor Store", "Homeware Store", "Antique Shop", "Bedding Store"],
    ),
    _n(
        "homeware_shop",
        "homeware shop",
        "homeware shops",
        ["Home Decor Store", "Homeware Store"],
        ["Furniture Store", "Gift Shop", "Department Store"],
    ),
    _n(
        "electronics_shop",
        "electronics shop",
        "electronics shops",
        ["Electronics Store"],
        ["Mobile Phone Store", "Department Store"],
    ),
    _n("phone_shop", "mobile phone shop", "mobile phone shops", ["Mobile Phone Store"], ["Electronics Store"]),
    _n("sports_shop", "sports shop", "sports shops", ["Sports Store"], ["Outdoor Store", "Bicycle Shop"]),
    _n("outdoor_shop", "outdoor-gear shop", "outdoor-gear shops", ["Outdoor Store"], ["Sports Store"]),
    _n("toy_shop", "toy shop", "toy shops", ["Toy Store"], ["Baby Store", "Gift Shop"]),
    _n("music_shop", "music shop", "music shops", ["Music Store"], []),
    _n("liquor_store", "liquor store", "liquor stores", ["Liquor Store"], [], name_words=("alko",)),
    _n(
        "antique_shop",
        "antique shop",
        "antique shops",
        ["Antique Shop"],
        ["Second-hand Store", "Art Shop"],
        name_words=("antiik", "antique", "antikvariaatti"),
    ),
    _n(
        "cosmetics_shop", "cosmetics shop", "cosmetics shops", ["Cosmetics Store"], ["Beauty Salon", "Department Store"]
    ),
    _n("bike_shop", "bike shop", "bike shops", ["Bicycle Shop"], ["Sports Store", "Bike Rental"]),
    _n("department_store", "department store", "department stores", ["Department Store"], ["Shopping Mall"]),
    _n("shopping_centre", "shopping centre", "shopping centres", ["Shopping Mall"], ["Department Store"]),
    _n("hardware_store", "hardware store", "hardware stores", ["Hardware Store"], []),
    # --- services ---------------------------------------------------------------------------
    _n(
        "hairdresser",
        "hairdresser",
        "hairdressers",
        ["Hairdresser"],
        ["Beauty Salon"],
        name_words=("hair", "parturi", "kampaamo", "barber"),
    ),
    _n(
        "beauty_salon",
        "beauty salon",
        "beauty salons",
        ["Beauty Salon", "Nail Salon"],
        ["Hairdresser", "Massage", "Cosmetics Store"],
        name_words=("beauty", "kauneus"),
    ),
    _n("bank", "bank branch", "bank branches", ["Bank"], [], name_words=("pankki", "bank")),
    _n(
        "cash_machine",
        "cash machine",
        "cash machines",
        ["ATM"],
        ["Bank", "Currency Exchange"],
        name_words=("otto", "atm"),
    ),
    _n("currency_exchange", "currency exchange", "currency exchanges", ["Currency Exchange"], ["Bank"]),
    _n(
        "bike_rental",
        "city-bike station",
        "city-bike stations",
        ["Bike Rental"],
        ["Bicycle Shop"],
        name_words=("kaupunkipyora", "bike"),
    ),
    _n("car_park", "car park", "car parks", ["Parking"], [], name_words=("parking", "pysakointi", "p-")),
    _n("gym", "gym", "gyms", ["Fitness Centre"], ["Sports Centre"], name_words=("gym", "fitness", "sali")),
    _n("dentist", "dentist", "dentists", ["Dentist"], ["Clinic"], name_words=("hammas", "dental")),
    _n(
        "doctor",
        "medical clinic",
        "medical clinics",
        ["Doctor", "Clinic"],
        ["Hospital", "Dentist"],
        name_words=("laakari", "clinic", "terveys", "medical"),
    ),
    _n(
        "travel_agency", "travel agency", "travel agencies", ["Travel Agency"], ["Tourist Information", "Ticket Office"]
    ),
    _n("post_office", "post office", "post offices", ["Post Office"], [], name_words=("posti",)),
    # --- culture and sights -----------------------------------------------------------------
    _n(
        "art_gallery",
        "art gallery",
        "art galleries",
        ["Art Gallery", "Art Shop"],
        ["Arts Centre", "Museum"],
        name_words=("galleria", "gallery", "galerie"),
    ),
    _n("museum", "museum", "museums", ["Museum"], ["Art Gallery", "Arts Centre"], name_words=("museo", "museum")),
    _n("theatre", "theatre", "theatres", ["Theatre"], ["Event Venue", "Arts Centre"], name_words=("teatteri", "theat")),
    _n("cinema", "cinema", "cinemas", ["Cinema"], [], name_words=("kino", "cinema", "bio ")),
    _n("library", "library", "libraries", ["Library"], [], name_words=("kirjasto", "library")),
    _n(
        "church",
        "place of worship",
        "places of worship",
        ["Place of Worship"],
        [],
        name_words=("kirkko", "church", "kyrka", "chapel", "kappeli"),
    ),
    _n("park", "park", "parks", ["Park", "Garden"], [], name_words=("puisto", "park", "esplanadi")),
    _n("memorial", "memorial", "memorials", ["Memorial", "Monument"], ["Public Artwork", "Historic Building"]),
    _n(
        "tourist_information",
        "tourist information office",
        "tourist information offices",
        ["Tourist Information"],
        ["Travel Agency"],
    ),
)

NOUN: dict[str, Noun] = {n.key: n for n in NOUNS}
if len(NOUN) != len(NOUNS):  # pragma: no cover - a typo in the table
    raise ValueError("duplicate noun key in the lexicon")


def nouns_for(place: dict) -> list[Noun]:
    """Every noun that accepts the place (most specific first: fewest accepted sub-types)."""
    return list(_nouns_for(str(place.get("place_type") or ""), str(place.get("tag") or "")))


@lru_cache(maxsize=8192)
def _nouns_for(place_type: str, tag: str) -> tuple[Noun, ...]:
    record = {"place_type": place_type, "tag": tag, "name": ""}  # acceptance never depends on the name
    found = [n for n in NOUNS if n.match(record) == ACCEPT]
    return tuple(sorted(found, key=lambda n: (len(n.accept), n.key)))


def noun_of(key: str) -> Noun:
    try:
        return NOUN[key]
    except KeyError:
        raise KeyError(f"unknown place noun {key!r}; known: {', '.join(sorted(NOUN))}") from None


# How questions say the travel mode and what to optimise; the verifier checks a question says both.
VEHICLE_WORDS: dict[str, tuple[str, ...]] = {
    "walking": ("walk", "on foot", "stroll"),
    "cycling": ("cycl", "bike", "bicycle", "pedal"),
    "driving": ("driv", "by car", "the car", "my car"),
}
MODE_WORDS: dict[str, tuple[str, ...]] = {
    "time": (
        "fastest",
        "quickest",
        "least time",
        "as quickly as",
        "as fast as",
        "soonest",
        "minimum time",
        "shortest time",
        "quickly as possible",
    ),
    "distance": (
        "shortest",
        "least distance",
        "fewest metres",
        "fewest kilometres",
        "minimum distance",
        "as short as",
        "least ground",
    ),
}


# Errands: what a user wants to do instead of naming the kind of place ("withdraw cash" for a cash
# machine). Each phrase names a noun and the other places a reader could accept for it (in Finland
# painkillers are sold only at pharmacies; Alko sells wine, and since 2024 so do supermarkets and grocery
# stores, up to 8 %; kiosks take parcels and banks pay out cash).
ERRANDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "buy painkillers": ("pharmacy", ()),
    "pick up a prescription": ("pharmacy", ()),
    "withdraw cash": ("cash_machine", ("Bank", "Currency Exchange")),
    "get some cash out": ("cash_machine", ("Bank", "Currency Exchange")),
    "send a parcel": ("post_office", ("Kiosk", "Convenience Store")),
    "get my glasses adjusted": ("optician", ()),
    "pick up a city bike": ("bike_rental", ("Bicycle Shop",)),
    "borrow a book": ("library", ()),
    "get a haircut": ("hairdresser", ("Beauty Salon",)),
    "buy a new novel": ("bookshop", ("Second-hand Store", "Department Store", "Kiosk")),
    "work out": ("gym", ("Sports Centre", "Swimming Pool")),
    "buy a bottle of wine": ("liquor_store", ("Supermarket", "Grocery Store", "Convenience Store", "Drinks Shop")),
    "do my grocery shopping": ("supermarket", ("Grocery Store", "Convenience Store", "Department Store")),
    "buy a bunch of flowers": ("florist", ("Supermarket", "Convenience Store", "Kiosk", "Marketplace")),
    "buy fresh bread": ("bakery", ("Supermarket", "Grocery Store", "Coffee House", "Convenience Store")),
    "buy a pair of shoes": ("shoe_shop", ("Department Store", "Sports Store", "Clothing Store", "Shopping Mall")),
    "park the car": ("car_park", ()),
    "change some money": ("currency_exchange", ("Bank",)),
}


def errand_noun(phrase: str) -> Noun:
    """The noun an errand stands for, with the places the errand adds as arguable."""
    try:
        key, extra = ERRANDS[phrase]
    except KeyError:
        raise KeyError(f"unknown errand {phrase!r}; known: {', '.join(sorted(ERRANDS))}") from None
    noun = NOUN[key]
    return Noun(
        noun.key,
        noun.singular,
        noun.plural,
        noun.accept,
        noun.might | frozenset(extra),
        noun.cuisines,
        noun.might_cuisines,
        noun.name_words,
        noun.dining,
    )


def errands_for(noun_key: str) -> list[str]:
    return [phrase for phrase, (key, _) in ERRANDS.items() if key == noun_key]
