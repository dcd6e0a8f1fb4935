"""Implicit needs (level L2): which hidden facts satisfy a need, and which places it fits.

An L2 question hints at a hidden social fact ("pet some stubby-legged Welsh herding pups"
for ``corgi_cafe``) without naming it. A :class:`Need` says

* ``satisfied_by``: the fact keys whose holders meet the need. The hinted fact first, then
  any other fact a careful reader would accept for the same words (a rooftop terrace for "see
  the whole city spread out below me"). The verifier treats every holder of any of them as a
  rival of the gold answer.
* ``fits``: the place nouns (:mod:`benchmark.cases.lexicon`) the phrasing makes sense for, or
  ``ANYWHERE`` for needs that fit any staffed indoor place (borrowing an umbrella). A gold
  answer must be a place one of these nouns accepts, so no case asks for a meal at a beauty
  salon or for guest bikes at an optician.
* ``vehicles``: the trip vehicles the need does not contradict (covered bike parking only
  makes sense when cycling).
* ``trips``: whether the need makes sense as a stop on a route (staying-related needs do not).

Only needs listed here are used; facts whose phrasing is vague ("friendly staff") or that an
explicit attribute would also satisfy ("affordable": any place with a low cost) are left out.
"""

from __future__ import annotations

from dataclasses import dataclass

ANYWHERE = ("*",)
VEHICLES = ("walking", "cycling", "driving")

# Sub-types that are not places one walks into (ANYWHERE needs never pick them as gold answers).
OUTDOOR_OR_OFFICE_TOPS = ("Business", "Scenery Spot")
NOT_VISITED_SUBS = (
    "Memorial",
    "Monument",
    "Tomb",
    "Public Artwork",
    "Fountain",
    "Parking",
    "ATM",
    "Bike Rental",
    "Recycling",
    "Toilets",
    "Embassy",
    "Police",
    "Fire Station",
    "Courthouse",
    "Sports Pitch",
    "Playground",
    "Taxi Stand",
)

_DINING = (
    "restaurant",
    "asian_restaurant",
    "japanese_restaurant",
    "sushi_restaurant",
    "chinese_restaurant",
    "thai_restaurant",
    "vietnamese_restaurant",
    "indian_restaurant",
    "nepalese_restaurant",
    "italian_restaurant",
    "pizzeria",
    "mexican_restaurant",
    "finnish_restaurant",
    "vegetarian_restaurant",
    "burger_place",
)
_DRINKING = ("bar", "pub", "nightclub")
_SHOPS = (
    "clothes_shop",
    "shoe_shop",
    "jewellery_shop",
    "bookshop",
    "gift_shop",
    "homeware_shop",
    "toy_shop",
    "sports_shop",
    "outdoor_shop",
    "music_shop",
    "antique_shop",
    "cosmetics_shop",
    "department_store",
    "electronics_shop",
    "phone_shop",
    "furniture_shop",
)
_STAY = ("hotel", "hostel")


@dataclass(frozen=True)
class Need:
    key: str
    satisfied_by: tuple[str, ...]
    fits: tuple[str, ...]
    vehicles: tuple[str, ...] = VEHICLES
    trips: bool = True

    def fits_anywhere(self) -> bool:
        return self.fits == ANYWHERE


def _need(key, fits, rivals=(), vehicles=VEHICLES, trips=True) -> Need:
    return Need(key, (key, *rivals), tuple(fits), tuple(vehicles), trips)


NEEDS: dict[str, Need] = {
    n.key: n
    for n in (
        # --- anywhere indoors ---------------------------------------------------------------------
        _need("free_umbrella_borrowing", ANYWHERE),
        _need("phone_charging_station", ANYWHERE),
        _need("dog_friendly_place", ANYWHERE),
        _need("english_speaking_staff", ANYWHERE),
        _need("bike_parking_racks", ANYWHERE, vehicles=("cycling",)),
        _need("baby_changing_table", ANYWHERE),
        _need("water_refill_point", ANYWHERE),
        _need("public_piano", ANYWHERE),
        _need("book_exchange_shelf", ANYWHERE),
        _need("quiet_room", ANYWHERE),
        # --- cafés, bars, restaurants ---------------------------------------------------------------
        _need("rooftop_terrace", ("cafe", *_DRINKING, *_DINING, *_STAY)),
        _need("corgi_cafe", ("cafe",)),
        _need("cat_cafe", ("cafe",)),
        _need("reading_sofa", ("cafe", "library", "bookshop")),
        _need("pink_decor", ("cafe", "bakery", *_DINING, "beauty_salon", "hairdresser", "clothes_shop")),
        _need("board_games_shelf", ("cafe", *_DRINKING)),
        _need("latte_walkup_window", ("cafe", "bakery")),
        _need("huge_cinnamon_buns", ("cafe", "bakery")),
        _need("free_oat_milk", ("cafe",)),
        _need("vinyl_listening_corner", ("cafe", "music_shop")),
        _need("laptop_outlets_everywhere", ("cafe", "library")),
        _need("kids_play_corner", ("cafe", *_DINING, *_SHOPS)),
        _need("aquarium_wall", (*_DINING, *_STAY)),
        _need("live_jazz_fridays", (*_DRINKING, *_DINING)),
        _need("karaoke_room", _DRINKING),
        _need("pool_table", _DRINKING),
        _need("craft_beer_taps", (*_DRINKING, *_DINING)),
        _need("dart_board", _DRINKING),
        _need("reindeer_dishes", _DINING),
        _need("salmon_soup", ("cafe", *_DINING)),
        _need("fully_vegan_menu", ("cafe", *_DINING)),
        _need("gluten_free_options", ("cafe", "bakery", *_DINING)),
        _need("open_fireplace", (*_DRINKING, *_DINING, *_STAY)),
        _need("sea_view_seats", ("cafe", *_DRINKING, *_DINING, *_STAY)),
        _need("weekend_brunch_buffet", ("cafe", *_DINING, *_STAY)),
        _need("open_kitchen_counter", _DINING),
        _need("retro_arcade", _DRINKING),
        _need("great_latte_art", ("cafe",)),
        _need("great_cocktails", (*_DRINKING, *_DINING)),
        _need("fresh_pastries", ("cafe", "bakery"), rivals=("huge_cinnamon_buns",)),
        _need("generous_portions", _DINING),
        _need("quiet_for_studying", ("cafe", "library"), rivals=("quiet_room",)),
        _need("good_wifi", ("cafe", "library", *_STAY)),
        _need("kid_friendly_vibe", ("cafe", *_DINING), rivals=("kids_play_corner",)),
        _need("students_hangout", ("cafe", *_DRINKING)),
        # --- shops and services --------------------------------------------------------------------
        _need("free_gift_wrapping", _SHOPS),
        _need("tax_free_shopping", _SHOPS),
        _need("second_hand_corner", ("clothes_shop", "shoe_shop", "bookshop", "sports_shop")),
        _need("local_designers", ("clothes_shop", "gift_shop", "homeware_shop", "jewellery_shop")),
        _need("moomin_merch", ("gift_shop", "bookshop", "toy_shop", "homeware_shop", "department_store")),
        _need("free_alterations", ("clothes_shop",)),
        _need("phone_repair_while_you_wait", ("phone_shop", "electronics_shop")),
        _need("custom_engraving", ("jewellery_shop", "gift_shop")),
        _need("knowledgeable_staff", _SHOPS),
        _need("walk_ins_welcome", ("hairdresser", "beauty_salon")),
        _need("head_massage", ("hairdresser",)),
        _need("organic_products", ("cosmetics_shop", "beauty_salon")),  # buying skincare: not at a hairdresser
        _need("queue_ticket_app", ("pharmacy", "bank", "doctor", "post_office")),
        _need("free_visitor_coffee", ("bank",)),
        # --- staying -------------------------------------------------------------------------------
        _need("guest_sauna", _STAY, trips=False),
        _need("luggage_storage", _STAY),
        _need("late_checkin_kiosk", _STAY, trips=False),
        _need("bike_rental_for_guests", _STAY, trips=False),
        _need("comfortable_beds", _STAY, trips=False),
        _need("meeting_room_rental", _STAY),
        # --- culture and outdoors ------------------------------------------------------------------
        _need("free_entry_friday", ("museum", "art_gallery")),
        _need("english_audio_guide", ("museum",)),
        _need("photo_friendly_halls", ("museum", "art_gallery")),
        _need("kids_workshop_sundays", ("museum", "art_gallery", "library")),
        _need("curated_exhibits", ("museum", "art_gallery")),
        _need("lake_sunset_spot", ANYWHERE + ("park",), rivals=("sea_view_seats", "great_view")),
        _need("great_view", ANYWHERE + ("park",), rivals=("rooftop_terrace",)),
        _need("red_squirrels", ("park",)),
        _need("picnic_lawn", ("park",)),
        _need("peaceful_nature", ("park",)),
        _need("winter_ice_rink", ("park", "gym")),
        _need("climbing_wall", ("gym",)),
        _need("towel_rental", ("gym",)),
        _need("table_tennis", ("park", "gym")),
        _need("great_for_kids_sports", ("gym",)),
    )
}


def need_of(key: str) -> Need:
    try:
        return NEEDS[key]
    except KeyError:
        raise KeyError(f"no implicit need for fact {key!r}") from None


def visited_indoors(place: dict) -> bool:
    """Whether a place is somewhere one walks in and is served (ANYWHERE needs pick only these)."""
    top, _, sub = str(place.get("place_type") or "").partition("|")
    return top not in OUTDOOR_OR_OFFICE_TOPS and sub not in NOT_VISITED_SUBS and not sub.startswith("Other")
