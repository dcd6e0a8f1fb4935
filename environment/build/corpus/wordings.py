"""How people word a static tag: each static fact appears in ``tag`` under one of several labels.

The paper's static attributes are distilled from posts, so the same thing reaches different
places' records in the words their posters used ("Facility: Kids play corner" at one café,
"Family: Toy corner" at another, "Kids: Play area" at a third). A table of exact labels
therefore does not find every holder; ``geo_tag`` still matches any word of them. A fact's
holders get its wordings in turn, by place_id (:func:`.plan.spread_wordings`), so one held by
three places or more shows in all of them.

``ALTERNATIVES`` holds, for every static fact, the wordings besides its spec's ``label``;
:func:`labels_of` gives all of them, the spec's own first.
"""

from __future__ import annotations

ALTERNATIVES: dict[str, tuple[str, ...]] = {
    "free_umbrella_borrowing": ("Rainy days: Loaner umbrellas", "Service: Umbrellas to borrow"),
    "phone_charging_station": ("Service: Charge your phone", "Facility: Charging lockers"),
    "dog_friendly_place": ("Rule: Dogs welcome", "Pets: Pups allowed inside"),
    "bike_parking_racks": ("Access: Sheltered bicycle racks", "Facility: Bike shelter"),
    "baby_changing_table": ("Family: Changing room", "Facility: Nappy changing"),
    "water_refill_point": ("Service: Refill your bottle", "Facility: Tap water station"),
    "public_piano": ("Music: Piano for anyone to play", "Facility: Open piano"),
    "book_exchange_shelf": ("Books: Swap shelf", "Facility: Take a book, leave a book"),
    "rooftop_terrace": ("Seating: Roof terrace", "Facility: Terrace on the roof"),
    "corgi_cafe": ("Pets: Resident corgis", "Animals: Corgis on site"),
    "cat_cafe": ("Pets: Resident cats", "Animals: Cat lounge"),
    "reading_sofa": ("Seating: Sofas", "Facility: Couch corner"),
    "pink_decor": ("Style: Pink interior", "Decor: All pink"),
    "board_games_shelf": ("Games: Board game library", "Entertainment: Tabletop games to borrow"),
    "latte_walkup_window": ("Takeaway: Street window", "Service: Coffee hatch"),
    "free_oat_milk": ("Drinks: Oat milk at no extra cost", "Dairy-free: Oat milk free"),
    "vinyl_listening_corner": ("Music: Record player corner", "Music: Vinyl to play"),
    "laptop_outlets_everywhere": ("Facility: Power outlets", "Work: Sockets at the tables"),
    "kids_play_corner": ("Family: Toy corner", "Kids: Play area"),
    "aquarium_wall": ("Decor: Fish tank wall", "Interior: Big aquarium"),
    "karaoke_room": ("Music: Karaoke", "Entertainment: Karaoke booth"),
    "pool_table": ("Games: Billiards", "Entertainment: Pool"),
    "craft_beer_taps": ("Drinks: Local brews on tap", "Beer: Craft tap list"),
    "dart_board": ("Games: Dartboard", "Entertainment: Darts corner"),
    "reindeer_dishes": ("Menu: Reindeer", "Food: Sautéed reindeer"),
    "open_fireplace": ("Interior: Fireplace", "Facility: Open fire"),
    "weekend_brunch_buffet": ("Menu: Brunch buffet on weekends", "Food: Weekend brunch"),
    "open_kitchen_counter": ("Seating: Chef's counter", "Interior: Open kitchen"),
    "retro_arcade": ("Games: Arcade machines", "Entertainment: Pinball and arcade"),
    "free_gift_wrapping": ("Service: Gift wrapping", "Extras: Presents wrapped for free"),
    "tax_free_shopping": ("Payment: Tax free for visitors", "Service: VAT refund"),
    "second_hand_corner": ("Products: Pre-loved rack", "Shop: Second-hand section"),
    "local_designers": ("Products: Finnish design", "Brands: Local designers"),
    "moomin_merch": ("Products: Moomin goods", "Gifts: Moomin shelf"),
    "free_alterations": ("Service: Hemming included", "Service: Alterations at no charge"),
    "refill_station": ("Zero waste: Bring your own jar", "Products: Refills"),
    "marimekko_fabric": ("Products: Fabrics by the metre", "Textiles: Cut to length"),
    "loyalty_stamp_card": ("Service: Loyalty card", "Rewards: Stamp card"),
    "custom_engraving": ("Service: Engraving", "Extras: Personal engraving"),
    "craft_workshops": ("Events: Weekend classes", "Service: Craft workshops"),
    "guest_sauna": ("Wellness: Sauna for guests", "Facility: Sauna"),
    "luggage_storage": ("Service: Bag storage", "Facility: Left luggage"),
    "late_checkin_kiosk": ("Check-in: Self check-in around the clock", "Service: Late arrival keycode"),
    "bike_rental_for_guests": ("Service: Bikes to rent", "Extras: Bicycle hire"),
    "free_entry_friday": ("Tickets: Free first Friday evenings", "Admission: Free on first Fridays"),
    "english_audio_guide": ("Visitors: Audio guide in English", "Service: Audioguide (EN)"),
    "photo_friendly_halls": ("Rule: Photos allowed", "Visitors: Cameras welcome"),
    "kids_workshop_sundays": ("Family: Sunday workshops for kids", "Kids: Workshop on Sundays"),
    "swimming_ladder": ("Facility: Ladder into the sea", "Outdoors: Swimming spot"),
    "picnic_lawn": ("Outdoors: Picnic lawn", "Facility: Picnic area"),
    "winter_ice_rink": ("Winter: Skating rink", "Facility: Ice rink in winter"),
    "climbing_wall": ("Sports: Bouldering", "Facility: Climbing"),
    "towel_rental": ("Service: Towels to rent", "Extras: Towel hire"),
    "table_tennis": ("Sports: Ping pong table", "Facility: Table tennis tables"),
    "walk_ins_welcome": ("Booking: Walk-ins accepted", "Service: No appointment needed"),
    "head_massage": ("Service: Scalp massage", "Extras: Head massage with every wash"),
    "organic_products": ("Products: Natural cosmetics", "Brands: Organic skincare"),
    "quiet_room": ("Facility: Silent room", "Facility: Quiet space"),
    "queue_ticket_app": ("Service: Queue number by app", "Service: Mobile queue"),
    "free_visitor_coffee": ("Service: Complimentary coffee", "Extras: Coffee for visitors"),
    "meeting_room_rental": ("Rooms: Meeting rooms by the hour", "Service: Rent a meeting room"),
    "heated_waiting_room": ("Facility: Warm waiting room", "Comfort: Heated waiting area"),
}
