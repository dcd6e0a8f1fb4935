"""Two-level place taxonomy ("Top|Sub") mapped from OSM tags, and per-type spend profiles.

``place_type_for`` looks the object's primary keys up in ``_TABLE`` in the order of
``PRIMARY_KEYS``; the first explicit entry wins (so ``shop=yes`` + ``office=company`` is a
company). A restaurant's sub-type may come from its first known ``cuisine``. When no key
has an entry, the first present key falls back to ``"<Top>|Other <Value>"`` so that no
place is dropped (``shop=yes`` gives ``"Shopping|Other Shop"``).
"""

from __future__ import annotations

PRIMARY_KEYS = ("amenity", "shop", "tourism", "leisure", "historic", "craft", "office")

TOP_TYPES = [
    "Food & Beverages",
    "Shopping",
    "Accommodation",
    "Scenery Spot",
    "Culture",
    "Entertainment",
    "Sports & Recreation",
    "Beauty & Personal Care",
    "Healthcare",
    "Public Service",
    "Finance",
    "Education",
    "Transport",
    "Business",
    "Crafts",
]

_FALLBACK_TOP = {
    "amenity": "Public Service",
    "shop": "Shopping",
    "tourism": "Scenery Spot",
    "leisure": "Sports & Recreation",
    "historic": "Culture",
    "craft": "Crafts",
    "office": "Business",
}

_FOOD, _SHOP, _STAY, _SCENE, _CULT = ("Food & Beverages", "Shopping", "Accommodation", "Scenery Spot", "Culture")
_FUN, _SPORT, _BEAUTY, _HEALTH, _PUBLIC = (
    "Entertainment",
    "Sports & Recreation",
    "Beauty & Personal Care",
    "Healthcare",
    "Public Service",
)
_MONEY, _EDU, _MOVE, _BIZ, _CRAFT = "Finance", "Education", "Transport", "Business", "Crafts"


def _rows(top: str, key: str, entries: dict[str, str]) -> dict[tuple[str, str], str]:
    return {(key, value): f"{top}|{sub}" for value, sub in entries.items()}


_TABLE: dict[tuple[str, str], str] = {
    **_rows(
        _FOOD,
        "amenity",
        {
            "cafe": "Coffee House",
            "restaurant": "Restaurant",
            "fast_food": "Fast Food",
            "pub": "Pub",
            "bar": "Bar",
            "biergarten": "Beer Garden",
            "food_court": "Food Court",
            "ice_cream": "Ice Cream Parlour",
        },
    ),
    **_rows(
        _FOOD,
        "shop",
        {
            "bakery": "Bakery",
            "confectionery": "Confectionery",
            "tea": "Tea Shop",
            "coffee": "Coffee Shop",
            "deli": "Delicatessen",
            "beverages": "Drinks Shop",
        },
    ),
    **_rows(_FOOD, "craft", {"brewery": "Brewery"}),
    **_rows(
        _SHOP,
        "shop",
        {
            "clothes": "Clothing Store",
            "boutique": "Clothing Store",
            "shoes": "Shoe Store",
            "supermarket": "Supermarket",
            "convenience": "Convenience Store",
            "grocery": "Grocery Store",
            "kiosk": "Kiosk",
            "mall": "Shopping Mall",
            "department_store": "Department Store",
            "jewelry": "Jewellery Store",
            "watches": "Watch Store",
            "gold": "Jewellery Store",
            "books": "Bookstore",
            "gift": "Gift Shop",
            "souvenir": "Gift Shop",
            "art": "Art Shop",
            "antiques": "Antique Shop",
            "furniture": "Furniture Store",
            "interior_decoration": "Home Decor Store",
            "houseware": "Homeware Store",
            "kitchen": "Homeware Store",
            "cookware": "Homeware Store",
            "bed": "Bedding Store",
            "carpet": "Carpet Store",
            "electronics": "Electronics Store",
            "computer": "Electronics Store",
            "mobile_phone": "Mobile Phone Store",
            "hifi": "Electronics Store",
            "sports": "Sports Store",
            "outdoor": "Outdoor Store",
            "bicycle": "Bicycle Shop",
            "alcohol": "Liquor Store",
            "toys": "Toy Store",
            "games": "Toy Store",
            "music": "Music Store",
            "musical_instrument": "Music Store",
            "records": "Music Store",
            "bag": "Bags and Suitcases Store",
            "handbags": "Bags and Suitcases Store",
            "leather": "Bags and Suitcases Store",
            "second_hand": "Second-hand Store",
            "variety_store": "Variety Store",
            "florist": "Florist",
            "optician": "Optician",
            "ticket": "Ticket Office",
            "travel_agency": "Travel Agency",
            "pet": "Pet Store",
            "photo": "Photo Store",
            "fabric": "Fabric Store",
            "craft": "Craft Supplies",
            "handicraft": "Craft Supplies",
            "doityourself": "Hardware Store",
            "hardware": "Hardware Store",
            "baby_goods": "Baby Store",
            "health_food": "Health Food Store",
            "hat": "Hat Store",
            "hats": "Hat Store",
            "frame": "Art Shop",
        },
    ),
    **_rows(_SHOP, "office", {"travel_agent": "Travel Agency"}),
    **_rows(_SHOP, "amenity", {"marketplace": "Marketplace"}),
    **_rows(
        _STAY,
        "tourism",
        {
            "hotel": "Hotel",
            "hostel": "Hostel",
            "guest_house": "Guest House",
            "apartment": "Apartment",
            "motel": "Motel",
            "camp_site": "Campsite",
        },
    ),
    **_rows(
        _SCENE,
        "tourism",
        {
            "attraction": "Tourist Attraction",
            "artwork": "Public Artwork",
            "viewpoint": "Viewpoint",
            "information": "Tourist Information",
        },
    ),
    **_rows(_SCENE, "amenity", {"artwork": "Public Artwork", "fountain": "Fountain"}),
    **_rows(_SCENE, "leisure", {"park": "Park", "garden": "Garden"}),
    **_rows(_CULT, "tourism", {"museum": "Museum", "gallery": "Art Gallery"}),
    **_rows(
        _CULT,
        "amenity",
        {
            "theatre": "Theatre",
            "arts_centre": "Arts Centre",
            "library": "Library",
            "place_of_worship": "Place of Worship",
            "bandstand": "Bandstand",
        },
    ),
    **_rows(_CULT, "leisure", {"bandstand": "Bandstand"}),
    **_rows(
        _CULT,
        "historic",
        {
            "memorial": "Memorial",
            "monument": "Monument",
            "tomb": "Tomb",
            "castle": "Castle",
            "building": "Historic Building",
        },
    ),
    **_rows(
        _FUN,
        "amenity",
        {
            "cinema": "Cinema",
            "nightclub": "Nightclub",
            "casino": "Casino",
            "events_venue": "Event Venue",
            "conference_centre": "Event Venue",
        },
    ),
    **_rows(_FUN, "leisure", {"dance": "Dance Hall", "miniature_golf": "Miniature Golf"}),
    **_rows(_FUN, "shop", {"anime": "Hobby Store"}),
    **_rows(
        _SPORT,
        "leisure",
        {
            "fitness_centre": "Fitness Centre",
            "sports_centre": "Sports Centre",
            "pitch": "Sports Pitch",
            "playground": "Playground",
            "swimming_pool": "Swimming Pool",
        },
    ),
    **_rows(
        _BEAUTY,
        "shop",
        {
            "hairdresser": "Hairdresser",
            "beauty": "Beauty Salon",
            "beauty_salon": "Beauty Salon",
            "cosmetics": "Cosmetics Store",
            "nails": "Nail Salon",
            "nailstudio": "Nail Salon",
            "massage": "Massage",
            "tattoo": "Tattoo Studio",
        },
    ),
    **_rows(
        _HEALTH, "amenity", {"dentist": "Dentist", "doctors": "Doctor", "clinic": "Clinic", "hospital": "Hospital"}
    ),
    **_rows(_HEALTH, "shop", {"hearing_aids": "Hearing Aids", "medical_supply": "Medical Supply"}),
    **_rows(
        _PUBLIC,
        "amenity",
        {
            "pharmacy": "Pharmacy",
            "post_office": "Post Office",
            "police": "Police",
            "fire_station": "Fire Station",
            "townhall": "Town Hall",
            "courthouse": "Courthouse",
            "embassy": "Embassy",
            "community_centre": "Community Centre",
            "social_facility": "Social Facility",
            "toilets": "Toilets",
            "recycling": "Recycling",
            "public_building": "Public Building",
        },
    ),
    **_rows(_PUBLIC, "office", {"government": "Government Office", "administrative": "Government Office"}),
    **_rows(_MONEY, "amenity", {"bank": "Bank", "atm": "ATM", "bureau_de_change": "Currency Exchange"}),
    **_rows(_MONEY, "office", {"financial": "Financial Services", "insurance": "Insurance", "central_bank": "Bank"}),
    **_rows(_MONEY, "shop", {"pawnbroker": "Pawnbroker"}),
    **_rows(
        _EDU,
        "amenity",
        {
            "school": "School",
            "college": "College",
            "university": "University",
            "driving_school": "Driving School",
            "kindergarten": "Kindergarten",
            "language_school": "Language School",
        },
    ),
    **_rows(
        _MOVE,
        "amenity",
        {
            "parking": "Parking",
            "bicycle_rental": "Bike Rental",
            "car_rental": "Car Rental",
            "bus_station": "Bus Station",
            "ferry_terminal": "Ferry Terminal",
            "taxi": "Taxi Stand",
            "fuel": "Fuel Station",
        },
    ),
    **_rows(
        _BIZ,
        "office",
        {
            "company": "Office",
            "yes": "Office",
            "ngo": "NGO",
            "association": "Association",
            "foundation": "Foundation",
            "lawyer": "Law Firm",
            "estate_agent": "Estate Agent",
            "it": "IT Company",
            "political_party": "Political Party",
            "business_park": "Business Park",
        },
    ),
    **_rows(_BIZ, "amenity", {"coworking_space": "Coworking Space"}),
    **_rows(
        _CRAFT,
        "craft",
        {
            "jeweller": "Jeweller",
            "shoemaker": "Shoemaker",
            "clockmaker": "Clockmaker",
            "tailor": "Tailor",
            "electronics_repair": "Electronics Repair",
        },
    ),
    **_rows(_CRAFT, "shop", {"tailor": "Tailor", "shoe_repair": "Shoemaker"}),
}

_CUISINE_SUB = {
    "pizza": "Pizzeria",
    "sushi": "Sushi Restaurant",
    "burger": "Burger Restaurant",
    "italian": "Italian Restaurant",
    "chinese": "Chinese Restaurant",
    "japanese": "Japanese Restaurant",
    "indian": "Indian Restaurant",
    "thai": "Thai Restaurant",
    "vietnamese": "Vietnamese Restaurant",
    "nepalese": "Nepalese Restaurant",
    "mexican": "Mexican Restaurant",
    "asian": "Asian Restaurant",
    "kebab": "Kebab Restaurant",
    "steak_house": "Steakhouse",
    "steak": "Steakhouse",
    "seafood": "Seafood Restaurant",
    "fish": "Seafood Restaurant",
    "vegan": "Vegan Restaurant",
    "vegetarian": "Vegetarian Restaurant",
    "regional": "Finnish Restaurant",
    "finnish": "Finnish Restaurant",
    "nordic": "Nordic Restaurant",
}


def _values(raw: str) -> list[str]:
    return [part.strip() for part in raw.split(";") if part.strip()]


def humanise(value: str) -> str:
    """``"coffee_shop"`` -> ``"Coffee shop"``."""
    text = value.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def _restaurant_sub(tags: dict) -> str:
    for cuisine in _values(tags.get("cuisine", "").lower()):
        if cuisine in _CUISINE_SUB:
            return f"{_FOOD}|{_CUISINE_SUB[cuisine]}"
    return f"{_FOOD}|Restaurant"


def _explicit_type(key: str, raw: str, tags: dict) -> str | None:
    for value in _values(raw):
        if (key, value) == ("amenity", "restaurant"):
            return _restaurant_sub(tags)
        if (key, value) in _TABLE:
            return _TABLE[(key, value)]
    return None


def _fallback_type(key: str, raw: str) -> str:
    values = _values(raw)
    value = values[0] if values and values[0] != "yes" else key
    return f"{_FALLBACK_TOP[key]}|Other {value.replace('_', ' ').title()}"


def place_type_for(tags: dict) -> str:
    """Return the ``"Top|Sub"`` place type of an OSM object's tags.

    Raises:
        ValueError: when the tags carry none of ``PRIMARY_KEYS``.
    """
    present = [key for key in PRIMARY_KEYS if tags.get(key)]
    if not present:
        raise ValueError("no primary POI key in tags")
    for key in present:
        explicit = _explicit_type(key, tags[key], tags)
        if explicit:
            return explicit
    return _fallback_type(present[0], tags[present[0]])


# Spend profiles: (rating mean, rating sd) or None; (cost low, cost high) in EUR or None.
_DEFAULT_PROFILE = ((4.1, 0.35), None)
_TOP_PROFILES: dict[str, tuple] = {
    _FOOD: ((4.1, 0.35), (10, 35)),
    _SHOP: ((4.1, 0.35), (15, 80)),
    _STAY: ((4.0, 0.4), (80, 250)),
    _SCENE: ((4.3, 0.3), None),
    _CULT: ((4.3, 0.3), None),
    _FUN: ((4.0, 0.4), (10, 40)),
    _SPORT: ((4.1, 0.35), None),
    _BEAUTY: ((4.2, 0.35), (30, 90)),
    _HEALTH: ((3.9, 0.45), (40, 120)),
    _PUBLIC: ((3.8, 0.45), None),
    _MONEY: (None, None),
    _EDU: ((4.0, 0.35), None),
    _MOVE: ((3.8, 0.45), None),
    _BIZ: (None, None),
    _CRAFT: ((4.3, 0.3), (20, 100)),
}
_SUB_COSTS: dict[str, tuple[int, int] | None] = {
    "Coffee House": (5, 15),
    "Fast Food": (8, 18),
    "Pub": (8, 30),
    "Bar": (8, 30),
    "Bakery": (4, 12),
    "Tea Shop": (6, 20),
    "Kiosk": (3, 12),
    "Ice Cream Parlour": (4, 10),
    "Food Court": (8, 20),
    "Convenience Store": (5, 20),
    "Supermarket": (10, 50),
    "Hostel": (25, 60),
    "Museum": (10, 22),
    "Art Gallery": (0, 15),
    "Theatre": (25, 80),
    "Cinema": (12, 20),
    "Nightclub": (15, 50),
    "Casino": (20, 120),
    "Fitness Centre": (10, 25),
    "Sports Centre": (8, 25),
    "Miniature Golf": (8, 15),
    "Hairdresser": (30, 80),
    "Pharmacy": (8, 40),
    "Post Office": (5, 20),
    "Parking": (3, 15),
    "Bike Rental": (5, 15),
    "Car Rental": (50, 120),
    "Shopping Mall": None,
    "Department Store": (30, 150),
    "Jewellery Store": (60, 400),
    "Furniture Store": (80, 600),
    "Optician": (80, 300),
    "Travel Agency": None,
    "Ticket Office": (10, 60),
    "Embassy": None,
    "Marketplace": (5, 25),
}


# Where people sit down to a meal: every sub-type with "Restaurant" in its name, and these two. Fast food and food
# courts serve meals too, at a counter: a cuisine tag can make them, say, an Asian restaurant (judging.rules), but they
# are priced and described as quick meals.
RESTAURANT_EXTRAS = ("Pizzeria", "Steakhouse")
COUNTER_MEAL_SUBS = ("Fast Food", "Food Court")


def is_restaurant(sub: str) -> bool:
    """Whether a sub-type is a restaurant: "... Restaurant", a pizzeria or a steakhouse."""
    return "Restaurant" in sub or sub in RESTAURANT_EXTRAS


def serves_meals(sub: str) -> bool:
    """Whether a sub-type is a place that serves meals: a restaurant, fast food or a food court."""
    return is_restaurant(sub) or sub in COUNTER_MEAL_SUBS


def restaurant_subs() -> tuple[str, ...]:
    """Every restaurant sub-type the taxonomy can give a place, sorted."""
    known = {place_type.partition("|")[2] for place_type in _TABLE.values()} | set(_CUISINE_SUB.values())
    return tuple(sorted(sub for sub in known if is_restaurant(sub)))


def spend_profile(place_type: str) -> tuple[tuple[float, float] | None, tuple[int, int] | None]:
    """Return ``(rating mean/sd or None, cost range in EUR or None)`` for a place type."""
    top, _, sub = place_type.partition("|")
    rating, cost = _TOP_PROFILES.get(top, _DEFAULT_PROFILE)
    if top == _FOOD and "Restaurant" in sub or sub in RESTAURANT_EXTRAS:
        cost = (15, 60)
    elif sub in _SUB_COSTS:
        cost = _SUB_COSTS[sub]
    return rating, cost


def top_of_sub(sub: str) -> str:
    """The top type of a sub-type of the table ("Pizzeria" -> "Food & Beverages"); "" when the table has none."""
    for place_type in _TABLE.values():
        top, _, known = place_type.partition("|")
        if known == sub:
            return top
    return ""
