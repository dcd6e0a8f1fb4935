"""Place kinds: which hidden facts make sense for which places.

A place's kind comes from its two-level type ("Food & Beverages|Coffee House" is a ``cafe``);
each fact of the vocabulary lists the kinds it fits (:attr:`~.fact_spec.FactSpec.kinds`), and
may narrow them to named sub-types (reindeer dishes only at Finnish, Nordic and plain
restaurants). So no fact lands where a reader would dispute it: no croissants at an
ice-cream chain, no play corner at a jeweller, no reindeer at a burger bar.

The table is by exact sub-type name (:mod:`environment.taxonomy`); a sub-type it does
not list takes its top type's kind (``_BY_TOP``), and a place of an unknown top type is
``other``, which fits only the few facts that fit anywhere people are served.
"""

from __future__ import annotations

from environment.taxonomy import RESTAURANT_EXTRAS

_SUBS: dict[str, tuple[str, ...]] = {
    "cafe": ("Coffee House", "Coffee Shop", "Tea Shop"),
    "bakery": ("Bakery", "Confectionery"),
    "ice_cream": ("Ice Cream Parlour",),
    "fast_food": ("Fast Food", "Burger Restaurant", "Kebab Restaurant"),
    "bar": ("Pub", "Bar", "Beer Garden", "Brewery"),
    "nightclub": ("Nightclub", "Dance Hall"),
    "hotel": ("Hotel", "Hostel", "Guest House", "Motel", "Apartment", "Campsite"),
    "fashion_shop": ("Clothing Store", "Shoe Store", "Hat Store", "Bags and Suitcases Store", "Second-hand Store"),
    "jeweller": ("Jewellery Store", "Jeweller", "Watch Store"),
    "bookshop": ("Bookstore",),
    "design_shop": (
        "Gift Shop",
        "Home Decor Store",
        "Homeware Store",
        "Art Shop",
        "Antique Shop",
        "Craft Supplies",
        "Carpet Store",
        "Bedding Store",
        "Furniture Store",
        "Fabric Store",
        "Florist",
    ),
    "tech_shop": ("Electronics Store", "Mobile Phone Store", "Photo Store"),
    "food_shop": (
        "Supermarket",
        "Convenience Store",
        "Kiosk",
        "Grocery Store",
        "Health Food Store",
        "Marketplace",
        "Delicatessen",
        "Liquor Store",
        "Drinks Shop",
    ),
    "gear_shop": ("Sports Store", "Outdoor Store", "Bicycle Shop"),
    "toy_shop": ("Toy Store", "Baby Store", "Hobby Store"),
    "big_store": ("Department Store", "Shopping Mall", "Variety Store"),
    "music_shop": ("Music Store",),
    "beauty": ("Hairdresser", "Beauty Salon", "Nail Salon", "Massage", "Tattoo Studio"),
    "cosmetics_shop": ("Cosmetics Store",),
    "pharmacy": ("Pharmacy",),
    "optician": ("Optician", "Hearing Aids"),
    "clinic": ("Dentist", "Doctor", "Clinic", "Hospital", "Medical Supply"),
    "bank": ("Bank", "Currency Exchange", "Financial Services", "Insurance", "Pawnbroker"),
    "museum": ("Museum", "Art Gallery", "Arts Centre", "Castle", "Historic Building"),
    "library": ("Library",),
    "venue": ("Theatre", "Cinema", "Event Venue", "Casino", "Miniature Golf"),
    "park": ("Park", "Garden", "Viewpoint", "Tourist Attraction"),
    "gym": ("Sports Centre", "Fitness Centre", "Swimming Pool"),
    "monument": (
        "Public Artwork",
        "Memorial",
        "Monument",
        "Tomb",
        "Fountain",
        "Bandstand",
        "Place of Worship",
        "Playground",
        "Sports Pitch",
    ),
    "workshop": ("Tailor", "Shoemaker", "Clockmaker", "Electronics Repair"),
    "office": ("Coworking Space",),
    "not_visited": (
        "ATM",
        "Parking",
        "Bike Rental",
        "Taxi Stand",
        "Toilets",
        "Recycling",
        "Fire Station",
        "Police",
        "Courthouse",
        "Embassy",
        "Fuel Station",
    ),
}
_BY_TOP = {
    "Food & Beverages": "restaurant",
    "Shopping": "shop",
    "Accommodation": "hotel",
    "Scenery Spot": "monument",
    "Culture": "museum",
    "Entertainment": "venue",
    "Sports & Recreation": "gym",
    "Beauty & Personal Care": "beauty",
    "Healthcare": "clinic",
    "Public Service": "public",
    "Finance": "bank",
    "Education": "school",
    "Transport": "transport",
    "Business": "office",
    "Crafts": "workshop",
}
_KIND_OF_SUB = {sub: kind for kind, subs in _SUBS.items() for sub in subs}
_KIND_OF_SUB.update({sub: "restaurant" for sub in ("Restaurant", *RESTAURANT_EXTRAS, "Food Court")})

KINDS: tuple[str, ...] = tuple(sorted({*_SUBS, *_BY_TOP.values(), "other"}))

# Kinds groups the vocabulary uses: where people sit down and are served, and every shop.
EATERIES = ("cafe", "bakery", "ice_cream", "restaurant", "fast_food", "bar", "nightclub")
SHOPS = (
    "fashion_shop",
    "jeweller",
    "bookshop",
    "design_shop",
    "tech_shop",
    "food_shop",
    "gear_shop",
    "toy_shop",
    "big_store",
    "music_shop",
    "cosmetics_shop",
    "shop",
)
SERVICES = ("beauty", "pharmacy", "optician", "clinic", "bank", "public", "workshop")
CULTURE = ("museum", "library", "venue")
STAFFED = (*EATERIES, *SHOPS, *SERVICES, *CULTURE, "hotel", "gym")  # somewhere you walk in and are served


def kind_of(place_type: str) -> str:
    """The kind of a place from its ``"Top|Sub"`` type: by sub-type, else by top type, else ``other``."""
    top, _, sub = place_type.partition("|")
    if sub in _KIND_OF_SUB:
        return _KIND_OF_SUB[sub]
    if sub.endswith(" Restaurant"):
        return "restaurant"
    if sub.startswith("Other") and top in ("Scenery Spot", "Public Service"):
        return "not_visited"
    return _BY_TOP.get(top, "other")


def subtypes_of(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The sub-type names the table gives these kinds ("Restaurant" for restaurants: every "... Restaurant")."""
    subs = {sub for kind in kinds for sub in _SUBS.get(kind, ())}
    subs |= {sub for sub, kind in _KIND_OF_SUB.items() if kind in kinds}
    return tuple(sorted(subs))


def kind_of_sub(sub: str) -> str:
    """The kind of a sub-type named alone ("Pizzeria"), with its top type from the taxonomy."""
    from environment.taxonomy import top_of_sub

    return kind_of(f"{top_of_sub(sub)}|{sub}")


def sub_of(place_type: str) -> str:
    return place_type.partition("|")[2]
