"""Implicit intents: how a user hints at a hidden social fact without naming it (level L2).

For every static and long-term fact in the vocabulary
(:mod:`environment.build.corpus.vocab`) an :class:`Intent` holds

* ``wants``: three infinitive verb phrases that fit after "I want to ..." /
  "I'd like to ..." (lower-case start, no trailing punctuation), e.g. the corgi cafe's
  "pet some stubby-legged Welsh herding pups while I sip a coffee";
* ``needs``: two first-person phrases that fit "Which of A, B or C is best if I {need}?",
  e.g. "want coffee with some stubby-legged Welsh herding pups";
* ``polarity``: ``"seek"`` when the user wants a place WITH the fact, ``"avoid"`` when the
  phrasing expresses the wish to stay clear of it (negative facts such as slow service).

No phrasing contains the fact's label text, its key read as words, or any of its
``evidence`` words: the fact has to be inferred from the social evidence, not matched
literally (``tests/benchmark/test_intents.py`` checks this).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SEEK, AVOID = "seek", "avoid"


@dataclass(frozen=True)
class Intent:
    key: str
    polarity: str  # "seek" or "avoid"
    wants: tuple[str, ...]  # 3 infinitive phrases for "I want to {want}"
    needs: tuple[str, ...]  # 2 phrases for "Which ... is best if I {need}?"


def _i(key: str, polarity: str, wants: tuple[str, ...], needs: tuple[str, ...]) -> Intent:
    return Intent(key, polarity, tuple(wants), tuple(needs))


_ALL: tuple[Intent, ...] = (
    # ===================================== static =========================================
    # --- generic -------------------------------------------------------------------------
    _i(
        "free_umbrella_borrowing",
        SEEK,
        (
            "get hold of something to keep the rain off without buying it, because it just started pouring",
            "borrow a brolly for the walk home and drop it back tomorrow",
            "stay dry on the way back even though I left home with nothing to shelter under and it's bucketing down",
        ),
        (
            "got caught in a downpour with nothing to keep me dry and don't want to buy anything",
            "need to borrow something to shelter under from the rain for the walk home",
        ),
    ),
    _i(
        "phone_charging_station",
        SEEK,
        (
            "top up my phone's battery because it's down to two percent",
            "get some juice back into my dying phone before I head out again",
            "power up my phone, since I forgot my power bank at home",
        ),
        ("have a phone that's about to die", "need to get my phone's battery back up"),
    ),
    _i(
        "dog_friendly_place",
        SEEK,
        (
            "bring my four-legged companion inside with me instead of tying him up outside",
            "sit down for a bite without leaving my Labrador alone on the street",
            "stop somewhere my furry friend on a leash is allowed to come in too",
        ),
        (
            "have my four-legged companion with me and want to take him inside",
            "can't leave my leashed Labrador alone outside",
        ),
    ),
    _i(
        "english_speaking_staff",
        SEEK,
        (
            "get things explained to me properly even though I don't speak a word of Finnish",
            "talk to the staff without a phrasebook, since I only arrived in Finland last week",
            "sort things out with staff who can handle a foreigner with zero Finnish",
        ),
        (
            "don't speak any Finnish and need the staff to understand me",
            "am a newcomer who can't manage a conversation in Finnish",
        ),
    ),
    _i(
        "bike_parking_racks",
        SEEK,
        (
            "cycle over and leave my ride under a roof so the saddle stays dry",
            "lock up my two-wheeler somewhere sheltered while I'm inside",
            "pedal there and find somewhere covered to lock my wheels",
        ),
        (
            "am cycling there and need a sheltered spot to lock up",
            "want my two-wheeler to stay out of the rain while I'm inside",
        ),
    ),
    _i(
        "baby_changing_table",
        SEEK,
        (
            "change my baby somewhere clean rather than on a restroom floor",
            "freshen up my infant on a proper flat surface in the toilets",
            "deal with a messy baby emergency somewhere hygienic",
        ),
        ("have an infant who will need a fresh change", "need a proper place in the restroom to change my baby"),
    ),
    _i(
        "water_refill_point",
        SEEK,
        (
            "fill up my empty flask with drinking water for free",
            "top up my reusable flask without buying another plastic one",
            "get free drinking water into my flask before the long walk back",
        ),
        ("have an empty flask and want free drinking water", "want to fill my reusable flask without paying"),
    ),
    _i(
        "public_piano",
        SEEK,
        (
            "sit down at a keyboard instrument anyone is allowed to play and practise a bit of Chopin",
            "play some Sibelius on an upright that's left out for the public",
            "tickle the ivories for a while, since I haven't touched the keys since I moved here",
        ),
        (
            "miss playing the ivories and want to practise on a public upright",
            "want to play a few tunes on keys anyone can use",
        ),
    ),
    _i(
        "book_exchange_shelf",
        SEEK,
        (
            "leave the novel I just finished and take a different one home for free",
            "trade the crime novel I've finished for something new to read, no money involved",
            "pick up a free used novel for the train in return for the one I've finished",
        ),
        (
            "have finished my novel and want to trade it for a new one",
            "want to drop off an old book and take another for free",
        ),
    ),
    _i(
        "rooftop_terrace",
        SEEK,
        (
            "have a drink in the open air up above the city's roofs",
            "enjoy a drink outdoors on the top floor of a building, high above the street",
            "sit outside at the very top of the building with the whole skyline around me",
        ),
        ("want to drink outside up on top of a building", "want an open-air seat high above the streets"),
    ),
    # --- cafes ---------------------------------------------------------------------------
    _i(
        "corgi_cafe",
        SEEK,
        (
            "pet some stubby-legged Welsh herding pups while I sip a coffee",
            "have a latte in the company of the late Queen's favourite breed of dog",
            "cuddle fluffy low-riding dogs with big ears and loaf-shaped bodies over a coffee",
        ),
        (
            "want coffee with some stubby-legged Welsh herding pups",
            "want to cuddle the late Queen's favourite breed over a latte",
        ),
    ),
    _i(
        "cat_cafe",
        SEEK,
        (
            "sip a coffee while purring felines nap on my lap",
            "have cake with a few whiskered residents wandering between the tables",
            "spend an hour with some furry mousers over a hot chocolate",
        ),
        ("want to pet a purring feline over coffee", "love felines and want some on my lap while I drink tea"),
    ),
    _i(
        "reading_sofa",
        SEEK,
        (
            "curl up with a novel on something soft and deep for a few hours",
            "sink into a big squashy seat with my book and lose track of time",
            "read for hours sprawled on plush cushions instead of a hard chair",
        ),
        (
            "want to sink into a soft, deep seat with a novel",
            "want to read for hours somewhere more comfortable than a wooden chair",
        ),
    ),
    _i(
        "pink_decor",
        SEEK,
        (
            "take photos in an interior that's all blush and rose from floor to ceiling",
            "have cake somewhere that looks like a Barbie dream house inside",
            "snap pictures against pastel rose walls and matching cups",
        ),
        ("want a Barbie-dream-house kind of interior for photos", "love everything in shades of rose and blush"),
    ),
    _i(
        "board_games_shelf",
        SEEK,
        (
            "play Catan or Ticket to Ride with friends over coffee",
            "spend the evening rolling dice over a tabletop game with my flatmates",
            "borrow a strategy game off the wall and play it at our table",
        ),
        (
            "want to play tabletop games like Catan with friends",
            "want somewhere with dice and strategy games to borrow",
        ),
    ),
    _i(
        "latte_walkup_window",
        SEEK,
        (
            "grab a takeaway coffee straight from the pavement without going inside",
            "order a latte through a hatch on the street on my way to the tram",
            "get a coffee handed to me from the street in under two minutes",
        ),
        (
            "want coffee handed out to me on the pavement without stepping inside",
            "want to order through a hatch on the street",
        ),
    ),
    _i(
        "huge_cinnamon_buns",
        SEEK,
        (
            "eat a cardamom-and-cinnamon pastry the size of my face",
            "try a giant Finnish 'slapped ear' pastry warm from the oven",
            "have an enormous cinnamon-sugar swirl with my coffee",
        ),
        ("crave a face-sized cardamom-and-cinnamon pastry", "want the biggest 'slapped ear' pastry in town"),
    ),
    _i(
        "free_oat_milk",
        SEEK,
        (
            "order a dairy-free flat white without paying extra for the plant milk",
            "have my cappuccino made with grain-based milk at no extra charge",
            "get a lactose-free latte without the usual surcharge for the milk swap",
        ),
        ("am lactose intolerant and hate paying extra for plant milk", "want a dairy-free coffee without a surcharge"),
    ),
    _i(
        "vinyl_listening_corner",
        SEEK,
        (
            "put on an old LP myself and listen with headphones",
            "flip through crates of LPs and spin one on a proper player",
            "listen to a classic album the analogue way, needle and all",
        ),
        ("want to spin old LPs on a proper player", "want to hear an album the analogue way, needle and all"),
    ),
    _i(
        "laptop_outlets_everywhere",
        SEEK,
        (
            "work on my laptop all afternoon without worrying about the battery dying",
            "keep my laptop powered at whatever table I end up at",
            "set up my laptop for a long work session with power right at my seat",
        ),
        ("need to keep my laptop powered for hours", "want power for my laptop at any seat I take"),
    ),
    _i(
        "kids_play_corner",
        SEEK,
        (
            "eat in peace while my toddler amuses herself with building blocks and crayons nearby",
            "have a coffee while my little ones have somewhere to keep busy playing",
            "let my four-year-old keep busy with blocks and crayons while I shop",
        ),
        (
            "have a toddler who needs blocks and crayons to stay busy",
            "want my little ones entertained while I sit down",
        ),
    ),
    _i(
        "aquarium_wall",
        SEEK,
        (
            "eat dinner next to tropical fish swimming behind a wall of glass",
            "sit by a giant glass wall full of colourful fish and coral",
            "show my kids exotic fish while we have a meal",
        ),
        ("want to dine beside a glass wall of tropical fish", "have kids who love watching colourful fish"),
    ),
    # --- bars and restaurants ------------------------------------------------------------
    _i(
        "live_jazz_fridays",
        SEEK,
        (
            "hear a saxophone and double-bass trio improvise on a Friday night",
            "listen to swing and bebop played live on Friday evening",
            "end the week with a live combo playing standards in the corner",
        ),
        (
            "want live swing and bebop on a Friday night",
            "want to hear a trio improvise standards at the end of the week",
        ),
    ),
    _i(
        "karaoke_room",
        SEEK,
        (
            "belt out ABBA hits into a microphone with my friends",
            "grab the mic and sing along to power ballads in a private room",
            "sing cheesy pop songs with my colleagues after dinner",
        ),
        ("want to grab a mic and belt out ABBA", "want a private room to sing pop songs with friends"),
    ),
    _i(
        "pool_table",
        SEEK,
        (
            "shoot a few racks of eight-ball over a beer",
            "chalk a cue and sink some balls with my mates",
            "play some eight-ball while my friends are on their way",
        ),
        ("want to play eight-ball over a beer", "want to chalk a cue and sink some balls"),
    ),
    _i(
        "craft_beer_taps",
        SEEK,
        (
            "sample hoppy small-batch beers from tiny Finnish breweries",
            "try a flight of unusual draught beers I've never heard of",
            "drink a hazy pale ale made by a microbrewery",
        ),
        ("want small-batch beers from tiny Finnish breweries", "want to try unusual draught beers"),
    ),
    _i(
        "dart_board",
        SEEK,
        (
            "throw some arrows at a bullseye over a pint",
            "have a friendly game of 501 with my mates",
            "aim for triple twenty with a few friends over beers",
        ),
        ("want to throw arrows at a bullseye with friends", "want a game of 501 over a pint"),
    ),
    _i(
        "reindeer_dishes",
        SEEK,
        (
            "taste the antlered animal that Sámi herders raise up north",
            "eat proper Lapland comfort food with mash and lingonberries",
            "try Rudolph's relatives, sautéed Lapland-style",
        ),
        ("want to try the meat of the animal Sámi herders raise", "want Lapland-style sautéed game with lingonberries"),
    ),
    _i(
        "salmon_soup",
        SEEK,
        (
            "warm up with a creamy Finnish fish chowder and rye bread",
            "eat a bowl of creamy salmon-and-potato stew with dill",
            "have a bowl of dill-scented creamy fish broth like a Finnish grandmother makes",
        ),
        ("crave a creamy Finnish fish chowder with dill", "want a warming salmon-and-potato bowl with rye bread"),
    ),
    _i(
        "fully_vegan_menu",
        SEEK,
        (
            "order anything on the menu without worrying about animal products",
            "take my sister, who eats no meat, eggs or dairy, somewhere she can choose freely",
            "eat out without having to check every dish for butter, eggs or cheese",
        ),
        (
            "eat no animal products at all and want to order anything",
            "am taking a friend who avoids meat, eggs and dairy entirely",
        ),
    ),
    _i(
        "gluten_free_options",
        SEEK,
        (
            "eat out safely despite my wheat allergy",
            "have a bite to eat that my wheat intolerance can handle",
            "find something to eat that won't make me ill, since wheat does",
        ),
        ("can't eat wheat at all", "have a wheat intolerance and want safe choices"),
    ),
    _i(
        "open_fireplace",
        SEEK,
        (
            "warm my hands at real burning logs on a freezing evening",
            "sit next to real flames and crackling logs with a glass of wine",
            "watch the flames dance in a hearth while the snow falls outside",
        ),
        ("want to sit next to a real hearth with burning logs", "want to watch real flames on a freezing night"),
    ),
    _i(
        "sea_view_seats",
        SEEK,
        (
            "watch the ferries glide past while I eat",
            "look out at the Baltic from my table",
            "sit where I can see boats and waves through the glass during my meal",
        ),
        ("want to watch the ferries from my table", "want to gaze at the Baltic while eating"),
    ),
    _i(
        "weekend_brunch_buffet",
        SEEK,
        (
            "load up my plate from a late-morning all-you-can-eat spread on Sunday",
            "have a lazy Saturday breakfast-and-lunch buffet with friends",
            "eat my way through a big late-morning weekend spread",
        ),
        (
            "want a late-morning all-you-can-eat spread on Sunday",
            "want a lazy weekend buffet that combines breakfast and lunch",
        ),
    ),
    _i(
        "open_kitchen_counter",
        SEEK,
        (
            "watch the cooks at work right in front of my plate",
            "sit up front where I can see every dish being prepared",
            "eat while watching the chefs sear and plate everything a metre away",
        ),
        ("want to watch the cooks prepare my food up close", "love seeing every dish being made in front of me"),
    ),
    _i(
        "retro_arcade",
        SEEK,
        (
            "play old coin-operated video games like Pac-Man and Street Fighter",
            "feed tokens into eighties game cabinets with a drink in hand",
            "chase a high score on classic flipper machines",
        ),
        ("want to play coin-op classics like Pac-Man", "want eighties game cabinets and flipper machines"),
    ),
    # --- shops ---------------------------------------------------------------------------
    _i(
        "free_gift_wrapping",
        SEEK,
        (
            "buy a birthday present and have it made ready to give, paper and ribbon included at no cost",
            "pick up a present and get it nicely packaged with a bow for free",
            "get a gift that's ready to hand over, with the ribbon and paper done for me",
        ),
        (
            "am buying a present and want it done up with paper and ribbon for free",
            "want a gift ready to hand over without packaging it myself",
        ),
    ),
    _i(
        "tax_free_shopping",
        SEEK,
        (
            "get the sales tax back on my purchases before I fly home to Shanghai",
            "claim back the VAT when I take my shopping out of the EU",
            "shop for souvenirs and reclaim the tax at the airport",
        ),
        ("live outside the EU and want the sales tax back", "want to reclaim the VAT at the airport"),
    ),
    _i(
        "second_hand_corner",
        SEEK,
        (
            "find a gently used jacket at a thrift price",
            "hunt for clothes that someone else owned before",
            "thrift a few gently used pieces instead of buying brand new",
        ),
        ("want gently used clothes rather than brand new", "like thrifting and want previously owned pieces"),
    ),
    _i(
        "local_designers",
        SEEK,
        (
            "buy clothes by up-and-coming Helsinki creators instead of global chains",
            "pick up a gift from an independent Finnish label",
            "support homegrown Finnish makers with my shopping",
        ),
        (
            "want to support independent Helsinki labels",
            "want something by homegrown Finnish makers rather than a global chain",
        ),
    ),
    _i(
        "moomin_merch",
        SEEK,
        (
            "buy a mug with Tove Jansson's hippo-like trolls on it",
            "get a Little My plush toy for my niece",
            "find souvenirs featuring Snufkin and his round white troll friends",
        ),
        ("want a souvenir featuring Tove Jansson's troll characters", "collect Little My and Snufkin mugs"),
    ),
    _i(
        "free_alterations",
        SEEK,
        (
            "buy trousers and have the length adjusted at no extra cost",
            "get a new dress taken in to fit me without paying extra",
            "buy jeans and have them shortened for free on the spot",
        ),
        (
            "need new trousers shortened without paying extra",
            "want clothes adjusted to fit me for free after buying them",
        ),
    ),
    _i(
        "refill_station",
        SEEK,
        (
            "top up my own containers with shampoo and detergent to cut down on packaging",
            "bring empty jars and fill them with soap instead of buying new plastic",
            "buy laundry liquid by pouring it into a bottle I brought from home",
        ),
        ("want to fill my own jars with shampoo and soap", "want to buy detergent without any new packaging"),
    ),
    _i(
        "marimekko_fabric",
        SEEK,
        (
            "buy a few metres of bold poppy-print cloth to sew curtains",
            "pick up some Finnish printed cotton cut to length for a sewing project",
            "get cloth cut from the roll so I can make my own cushion covers",
        ),
        (
            "want printed cloth cut to length for sewing",
            "am sewing curtains and need a few metres of bold cotton print",
        ),
    ),
    _i(
        "loyalty_stamp_card",
        SEEK,
        (
            "collect points toward a free tenth coffee",
            "get rewarded for coming back, with every tenth one on the house",
            "keep a punch card going that gives me a freebie after a few visits",
        ),
        ("come back often and want my tenth one free", "like collecting punches toward a freebie"),
    ),
    _i(
        "phone_repair_while_you_wait",
        SEEK,
        (
            "get my cracked phone screen replaced on the spot",
            "have my broken phone sorted while I grab a coffee nearby",
            "get a new battery put in my phone and walk out with it the same hour",
        ),
        ("have a cracked phone screen and can't leave it for days", "need my broken phone sorted on the spot"),
    ),
    _i(
        "custom_engraving",
        SEEK,
        (
            "have a name etched onto a silver bracelet as a gift",
            "get a personal message inscribed on the back of a watch",
            "have our initials cut into a ring for our anniversary",
        ),
        ("want initials etched onto a gift", "want a personal message inscribed on a ring"),
    ),
    _i(
        "craft_workshops",
        SEEK,
        (
            "learn to throw pots on a hands-on weekend course",
            "make my own piece of jewellery with a teacher guiding me on Saturday",
            "spend a weekend afternoon making something with my own hands under an instructor",
        ),
        ("want to learn a craft hands-on at the weekend", "want to make something myself with a teacher guiding me"),
    ),
    # --- accommodation -------------------------------------------------------------------
    _i(
        "guest_sauna",
        SEEK,
        (
            "sweat it out in a wood-heated hot room right at my hotel",
            "throw water on the hot stones after a day of walking, without leaving where I'm staying",
            "sit in a steamy Finnish hot room before bed at my accommodation",
        ),
        (
            "want to throw water on hot stones without leaving my hotel",
            "want a Finnish steam session where I'm staying",
        ),
    ),
    _i(
        "luggage_storage",
        SEEK,
        (
            "leave my heavy backpack somewhere for a few hours after checking out",
            "drop off my rolling case so I can explore before my night train",
            "get rid of my baggage for the afternoon before the ferry leaves",
        ),
        (
            "have to drag a heavy case around until my evening train",
            "need somewhere to leave my baggage for the afternoon",
        ),
    ),
    _i(
        "late_checkin_kiosk",
        SEEK,
        (
            "get into my room when my flight lands at 3 am and reception is long closed",
            "let myself into my accommodation in the middle of the night with no staff around",
            "arrive well after midnight and still get my room without anyone at the desk",
        ),
        ("arrive at 3 am when no one is at reception", "need to let myself in after midnight"),
    ),
    _i(
        "bike_rental_for_guests",
        SEEK,
        (
            "borrow a set of wheels from where I'm staying and cycle around town",
            "hire a bicycle at my hotel to explore the shoreline paths",
            "pedal around the city on two wheels straight from my accommodation",
        ),
        ("want to explore on two wheels right from my hotel", "want to hire a bicycle where I'm staying"),
    ),
    # --- culture -------------------------------------------------------------------------
    _i(
        "free_entry_friday",
        SEEK,
        (
            "see the art without paying anything on the first Friday evening of the month",
            "visit a museum for nothing tonight since it's the first Friday",
            "look around the exhibits on a Friday night without spending a cent",
        ),
        ("want to see the art for nothing on a Friday evening", "am broke and it's the first Friday of the month"),
    ),
    _i(
        "english_audio_guide",
        SEEK,
        (
            "listen to commentary in English through headphones as I walk around the halls",
            "have a narrator explain each room to me in English",
            "follow spoken commentary on a handset as I go from room to room",
        ),
        ("want spoken commentary in English on a handset", "want headphones telling me about each room in English"),
    ),
    _i(
        "photo_friendly_halls",
        SEEK,
        (
            "snap pictures of the artworks without a guard telling me off",
            "take plenty of pictures of the interiors for my travel blog",
            "shoot the galleries on my phone freely",
        ),
        (
            "want to snap pictures of everything without being told off",
            "want a museum where I can shoot the exhibits on my phone",
        ),
    ),
    _i(
        "kids_workshop_sundays",
        SEEK,
        (
            "keep my six-year-old busy with a hands-on art session on Sunday morning",
            "find a Sunday activity where my kids can make crafts with an instructor",
            "let my children paint and build things with a teacher on Sunday",
        ),
        (
            "have a six-year-old who needs a hands-on art session on Sunday",
            "want a Sunday craft activity for my children",
        ),
    ),
    # --- scenery and outdoors ------------------------------------------------------------
    _i(
        "lake_sunset_spot",
        SEEK,
        (
            "watch the sky turn orange as the sun goes down over the water",
            "catch the last light of the day from a good spot",
            "see the sun sink below the horizon with a drink in hand",
        ),
        ("want to watch the sun go down", "want the best spot for the last light of the evening"),
    ),
    _i(
        "red_squirrels",
        SEEK,
        (
            "feed hazelnuts to the little russet tree critters with tufted ears",
            "spot some bushy-tailed ginger rodents darting up the pine trees",
            "watch little red-furred tree climbers nibble on nuts",
        ),
        (
            "want to see tufted-eared russet critters in the trees",
            "want to feed nuts to the little ginger tree rodents",
        ),
    ),
    _i(
        "swimming_ladder",
        SEEK,
        (
            "get into the sea easily for a bracing plunge",
            "lower myself into the Baltic for an early-morning bathe",
            "go for an ice-cold sea bathe before breakfast",
        ),
        ("want an easy way down into the sea for a plunge", "want a bracing bathe in the Baltic"),
    ),
    _i(
        "picnic_lawn",
        SEEK,
        (
            "spread out on the grass with sandwiches and strawberries",
            "eat a packed lunch on soft grass in the sun",
            "lie on the grass and share snacks with friends",
        ),
        ("want to eat a packed meal sitting on soft grass", "want a grassy spot to spread out with sandwiches"),
    ),
    _i(
        "winter_ice_rink",
        SEEK,
        (
            "glide around on blades under the winter lights",
            "do a few laps on the ice with hot chocolate afterwards",
            "try a few twirls on frozen ice this winter",
        ),
        ("want to glide around on blades this winter", "want to do laps on the ice"),
    ),
    # --- sports --------------------------------------------------------------------------
    _i(
        "climbing_wall",
        SEEK,
        (
            "scale some holds on an indoor wall with chalk on my hands",
            "work on some overhang problems with chalky hands",
            "get up a vertical wall in a harness with a belay partner",
        ),
        ("want to scale an indoor wall with chalk and a harness", "want to practise overhangs on some holds"),
    ),
    _i(
        "towel_rental",
        SEEK,
        (
            "dry off after a swim even though I forgot to pack anything to dry off with",
            "get something to dry myself with on site, since I came straight from work",
            "borrow something absorbent to dry off with after the gym shower",
        ),
        (
            "forgot to bring anything to dry off with after swimming",
            "need something to dry myself with after the shower there",
        ),
    ),
    _i(
        "table_tennis",
        SEEK,
        (
            "knock a little celluloid ball back and forth over a net with paddles",
            "play a few rallies with bats and a small white ball",
            "challenge my friend to a match with paddles and a tiny bouncing ball",
        ),
        ("want to rally with paddles over a little net", "want a quick match with bats and a small white ball"),
    ),
    # --- beauty --------------------------------------------------------------------------
    _i(
        "walk_ins_welcome",
        SEEK,
        (
            "get a haircut right now on a whim, with no reservation",
            "pop in for a trim without having reserved a slot",
            "get my nails done today even though I didn't plan ahead",
        ),
        ("haven't reserved anything and want a trim right now", "want to just show up without a reservation"),
    ),
    _i(
        "head_massage",
        SEEK,
        (
            "have my scalp rubbed while my hair is being washed",
            "get a relaxing rub of my head as part of a haircut",
            "enjoy a pampering shampoo with fingertips working my temples and scalp",
        ),
        ("want my scalp rubbed when they wash my hair", "want a relaxing head rub along with a cut"),
    ),
    _i(
        "organic_products",
        SEEK,
        (
            "buy skincare made without synthetic chemicals or pesticides",
            "find makeup made from certified eco-farmed ingredients",
            "get a moisturiser made from pesticide-free botanicals",
        ),
        ("want skincare free of synthetic chemicals", "want cosmetics made from pesticide-free plants"),
    ),
    # --- public service, health, finance, transport, business ----------------------------
    _i(
        "quiet_room",
        SEEK,
        (
            "slip away to a private, hushed space to pray for a few minutes",
            "step into a secluded space to take a phone call away from the noise",
            "find a little room where I can meditate undisturbed",
        ),
        ("need a secluded space to pray", "want a hushed little room to take a call"),
    ),
    _i(
        "queue_ticket_app",
        SEEK,
        (
            "reserve my place in line from my phone before I arrive",
            "get my turn booked on my phone so I don't stand around at the counter",
            "check in for my turn from an app and show up right when I'm called",
        ),
        (
            "want to get my place in line from my phone before I arrive",
            "hate standing around at the counter for my turn",
        ),
    ),
    _i(
        "free_visitor_coffee",
        SEEK,
        (
            "get a cup of coffee on the house while I'm there for my appointment",
            "have a hot drink that doesn't cost anything while I sort out my paperwork",
            "help myself to a free cappuccino in the lobby",
        ),
        ("could use a coffee on the house during my appointment", "want a free hot drink in the lobby"),
    ),
    _i(
        "meeting_room_rental",
        SEEK,
        (
            "book a private space with a screen for a two-hour client meeting",
            "reserve a room with a whiteboard for my team for an afternoon",
            "rent a closed-door space for a video pitch to investors",
        ),
        (
            "need a private space with a screen for a client meeting",
            "want to rent a room with a whiteboard for a couple of hours",
        ),
    ),
    _i(
        "heated_waiting_room",
        SEEK,
        (
            "thaw out indoors by a radiator while I wait for my bus in February",
            "wait for my connection somewhere warm instead of at a freezing stop",
            "sit somewhere toasty until the next tram comes in January",
        ),
        ("have a long wait for a connection in freezing weather", "want a toasty place indoors until my bus comes"),
    ),
    _i(
        "card_only_no_cash",
        AVOID,
        (
            "pay with the banknotes in my wallet because my bank card was just blocked",
            "spend the euro notes and coins left over from my trip",
            "settle the bill with paper money since my card doesn't work here",
        ),
        ("only have banknotes and coins on me", "need to pay with paper money because my card is blocked"),
    ),
    # =================================== long-term ========================================
    _i(
        "quiet_for_studying",
        SEEK,
        (
            "revise for my exams somewhere hushed for the whole afternoon",
            "finish a thesis chapter without chatter distracting me",
            "cram for tomorrow's test in a place where nobody raises their voice",
        ),
        ("need a hushed place to revise for exams", "need to focus on my thesis without distractions"),
    ),
    _i(
        "noisy_evenings",
        AVOID,
        (
            "have a dinner conversation tonight without having to raise my voice",
            "chat over an evening drink where I can actually hear my friend",
            "enjoy a low-key evening meal where the din won't drown out our talk",
        ),
        ("want to hear each other talk over dinner tonight", "want an evening drink without a roaring din"),
    ),
    _i(
        "crowded_at_lunch",
        AVOID,
        (
            "grab a midday bite without fighting the office workers for a table",
            "get a seat at noon without squeezing in between the nine-to-five crowd",
            "have a relaxed midday meal without elbowing through a rush of office staff",
        ),
        ("want a midday meal without battling the office rush", "want to sit down easily at noon"),
    ),
    _i(
        "rarely_crowded",
        SEEK,
        (
            "find a seat easily at any time without jostling strangers",
            "have a spot where I'm never fighting for elbow room",
            "go somewhere I can count on getting a table whenever I turn up",
        ),
        ("hate jostling for a seat and want somewhere spacious", "want to be sure of a table whenever I turn up"),
    ),
    _i(
        "friendly_staff",
        SEEK,
        (
            "be greeted with a warm smile by people who make me feel at home",
            "be looked after by staff who chat and go out of their way for me",
            "feel at home with people behind the counter who remember my name",
        ),
        (
            "want to be greeted with a smile and made to feel at home",
            "appreciate staff who go out of their way for guests",
        ),
    ),
    _i(
        "unfriendly_staff",
        AVOID,
        (
            "be served without getting snapped at for asking questions",
            "get help from people who won't roll their eyes at me",
            "sit down somewhere I won't be treated like a nuisance by the staff",
        ),
        ("hate being snapped at by staff", "don't want to be treated like a nuisance"),
    ),
    _i(
        "slow_service",
        AVOID,
        (
            "have a sit-down meal without being left hanging for my food when I've a train to catch",
            "eat without sitting around for ages before anyone takes my order",
            "get my order and the bill in good time before my film starts",
        ),
        ("can't afford to be left hanging for my food", "have a train to catch and need the meal to move along"),
    ),
    _i(
        "fast_service",
        SEEK,
        (
            "get my order in my hands almost as soon as I've paid",
            "grab something to eat and be back out the door within my ten-minute break",
            "get served straight away because I'm in a real hurry",
        ),
        ("am in a real hurry and need to be served straight away", "only have a ten-minute break"),
    ),
    _i(
        "great_latte_art",
        SEEK,
        (
            "sip a cappuccino with a pretty rosetta poured into the foam",
            "get a milky espresso with a little heart drawn in the microfoam",
            "admire a swan poured into the milk of my coffee before I drink it",
        ),
        ("want a cappuccino with a fern or heart drawn in the foam", "love coffees with pretty patterns in the milk"),
    ),
    _i(
        "weak_coffee",
        AVOID,
        (
            "drink an espresso with a proper kick to it",
            "get a strong, full-bodied cup that actually wakes me up",
            "have coffee that tastes like coffee rather than dishwater",
        ),
        ("want a strong, full-bodied coffee", "hate coffee that tastes like dishwater"),
    ),
    _i(
        "great_cocktails",
        SEEK,
        (
            "sip a perfectly balanced negroni or something inventive shaken to order",
            "have a few well-made mixed drinks with smoked garnishes",
            "try a signature gin creation from someone who has mastered the shaker",
        ),
        ("want an inventive, well-made mixed drink", "love a perfectly stirred negroni"),
    ),
    _i(
        "affordable_prices",
        SEEK,
        (
            "eat well without spending much, since I'm broke until payday",
            "get a decent meal for under ten euros",
            "fill up without draining my wallet",
        ),
        ("am broke until payday", "want a decent meal for under ten euros"),
    ),
    _i(
        "high_prices",
        AVOID,
        (
            "treat myself without paying twenty euros for a sandwich",
            "stick to a tight spending limit and avoid getting ripped off",
            "have a drink without the bill giving me a shock",
        ),
        ("don't want the bill to give me a shock", "refuse to pay twenty euros for a sandwich"),
    ),
    _i(
        "cosy_lighting",
        SEEK,
        (
            "sit in a soft, dim glow with a hot drink on a dark November evening",
            "hide from the winter darkness somewhere lit by flickering tea lights",
            "relax somewhere with low amber lamps instead of harsh ceiling lights",
        ),
        ("want soft amber lamplight on a dark evening", "hate harsh ceiling lights and want a dim glow"),
    ),
    _i(
        "bright_airy",
        SEEK,
        (
            "sit somewhere flooded with natural light",
            "work in a sunlit, spacious room with high ceilings",
            "have coffee in a light-filled space with tall glass walls",
        ),
        ("want a sunlit space with high ceilings", "want plenty of natural light"),
    ),
    _i(
        "great_for_dates",
        SEEK,
        (
            "take someone I'm seeing out for a special evening",
            "impress my girlfriend on our anniversary night",
            "spend an intimate evening for two with someone I like",
        ),
        ("am planning an anniversary evening for two", "want to impress someone I've just started seeing"),
    ),
    _i(
        "good_for_groups",
        SEEK,
        (
            "get a table for my whole football team of twelve",
            "eat together with a party of eight without splitting up",
            "sit down with all my classmates at one long table",
        ),
        ("am bringing a party of twelve", "need one long table for my whole team"),
    ),
    _i(
        "kid_friendly_vibe",
        SEEK,
        (
            "bring my toddler and my pram without getting dirty looks",
            "have a meal out with my two little ones where nobody minds a bit of noise",
            "take the whole brood out for a relaxed afternoon",
        ),
        ("am bringing a toddler and a pram", "want somewhere nobody minds a fussing toddler"),
    ),
    _i(
        "photogenic_interior",
        SEEK,
        (
            "take some great shots of the décor for my feed",
            "find a backdrop stylish enough for my social media posts",
            "snap pictures of a gorgeous interior to post online",
        ),
        ("want a stylish backdrop for my feed", "want décor that looks great in pictures"),
    ),
    _i(
        "generous_portions",
        SEEK,
        (
            "eat until I'm properly stuffed after a long hike",
            "get a heaping plate that will keep me going for the whole day",
            "have a hearty meal with more food than I can finish",
        ),
        ("am starving and want a heaping plate", "want to leave properly stuffed"),
    ),
    _i(
        "small_portions",
        AVOID,
        (
            "get a filling plate without leaving hungry",
            "have a proper meal that actually fills me up",
            "eat somewhere I won't need a second dinner afterwards",
        ),
        ("don't want to need a second dinner afterwards", "want a meal that actually fills me up"),
    ),
    _i(
        "fresh_pastries",
        SEEK,
        (
            "have a warm, flaky viennoiserie straight out of the oven",
            "grab a buttery morning bun still warm from baking",
            "eat flaky, buttery treats made on site that morning",
        ),
        ("crave something flaky and buttery still warm from the oven", "want morning treats made on site today"),
    ),
    _i(
        "weekend_queues",
        AVOID,
        (
            "get in on a Saturday morning without standing outside for ages",
            "visit on Sunday without a long wait at the door",
            "go there on a Saturday without spending half an hour at the door behind other people",
        ),
        ("can only go on Saturday and hate standing at the door", "don't want to stand outside for ages on Sunday"),
    ),
    _i(
        "students_hangout",
        SEEK,
        (
            "hang out where university people spend their afternoons",
            "meet other uni folks working on laptops over coffee",
            "find where the undergrads gather between lectures",
        ),
        ("want to meet other uni people between lectures", "want to be among undergrads"),
    ),
    _i(
        "tourist_trap",
        AVOID,
        (
            "eat where the Finns actually eat rather than somewhere aimed at cruise passengers",
            "dine somewhere that isn't full of sightseers and menus in six languages",
            "experience the real Helsinki instead of a spot built for visitors with selfie sticks",
        ),
        ("don't want a place aimed at cruise passengers", "want to avoid menus in six languages and selfie sticks"),
    ),
    _i(
        "locals_favourite",
        SEEK,
        (
            "eat where Helsinki residents themselves go every week",
            "find the spot that regulars from the area swear by",
            "go where my Finnish colleagues would take me",
        ),
        ("want to go where Helsinki residents actually go", "want a spot the regulars swear by"),
    ),
    _i(
        "clean_and_tidy",
        SEEK,
        (
            "eat somewhere with truly hygienic tables and toilets",
            "sit down somewhere without sticky tables or grimy restrooms",
            "go somewhere immaculate, toilets included",
        ),
        ("can't stand sticky tables or grimy restrooms", "want somewhere immaculate, toilets included"),
    ),
    _i(
        "dated_interior",
        AVOID,
        (
            "sit somewhere with a fresh, modern look",
            "hang out in a space that feels newly done up rather than stuck in 1975",
            "enjoy a sleek, contemporary interior",
        ),
        ("prefer a fresh, modern look", "don't want decor stuck in 1975"),
    ),
    _i(
        "great_view",
        SEEK,
        (
            "see the whole city spread out below me",
            "look out over the harbour and the islands from up high",
            "take in the whole skyline at a glance",
        ),
        ("want to see the whole city spread out below me", "want to take in the skyline from up high"),
    ),
    _i(
        "peaceful_nature",
        SEEK,
        (
            "clear my head somewhere with nothing but rustling leaves and the sea breeze",
            "get away from traffic noise and just hear the trees swaying",
            "sit alone with my thoughts away from the city's bustle",
        ),
        ("want to get away from the city's bustle", "want nothing but rustling leaves to listen to"),
    ),
    _i(
        "windy_exposed",
        AVOID,
        (
            "enjoy the waterfront without getting blasted by gusts",
            "sit outdoors without my hat being blown off into the sea",
            "take a stroll by the water somewhere sheltered from the gale",
        ),
        ("don't want to get blasted by gusts", "want somewhere sheltered from the gale by the water"),
    ),
    _i(
        "good_playlist",
        SEEK,
        (
            "browse with great tunes playing in the background",
            "sip a drink while the speakers play tracks I keep wanting to identify",
            "have coffee with a soundtrack that's worth listening to",
        ),
        ("care about what tunes are playing in the background", "want a great soundtrack while I sit"),
    ),
    _i(
        "knowledgeable_staff",
        SEEK,
        (
            "get proper guidance from someone who really understands what they sell",
            "ask detailed questions and get real answers about the products",
            "be helped to choose by someone with deep product know-how",
        ),
        ("want staff who really understand their products", "need proper guidance to pick the right thing"),
    ),
    _i(
        "wide_selection",
        SEEK,
        (
            "browse through as many options as possible before picking",
            "find practically anything I'm looking for under one roof",
            "compare dozens of models side by side before I buy",
        ),
        ("want as many options as possible to compare", "want to find practically anything under one roof"),
    ),
    _i(
        "limited_stock",
        AVOID,
        (
            "actually find my size on the shelf",
            "buy the popular items before they've all gone",
            "pick up exactly what I came for without being told they ran out",
        ),
        ("need to be sure they'll have my size", "don't want to be told they ran out"),
    ),
    _i(
        "comfortable_beds",
        SEEK,
        (
            "sleep like a baby on a really comfy mattress",
            "get a proper night's rest on soft pillows and a great mattress",
            "rest my aching back on a top-notch mattress tonight",
        ),
        ("have a bad back and need a great mattress", "want to sleep like a baby tonight"),
    ),
    _i(
        "thin_walls",
        AVOID,
        (
            "get a good night's sleep without hearing the people next door",
            "rest without the corridor chatter keeping me up",
            "sleep soundly without needing to stuff anything in my ears",
        ),
        ("am a light sleeper who wakes at every noise next door", "need total silence from the next room to sleep"),
    ),
    _i(
        "curated_exhibits",
        SEEK,
        (
            "see a small, thoughtfully chosen set of artworks rather than endless halls",
            "spend an hour with displays where every piece has been picked with care",
            "visit a gallery whose shows are put together thoughtfully",
        ),
        (
            "want thoughtfully chosen art rather than endless halls",
            "appreciate displays where every piece is picked with care",
        ),
    ),
    _i(
        "long_wait_times",
        AVOID,
        (
            "get my errand done at the desk without sitting around all afternoon",
            "see a doctor without losing half the day before my name is called",
            "get served at the counter and be back out before my break ends",
        ),
        ("can't spend half the day sitting around for my turn", "need to be seen promptly"),
    ),
    _i(
        "hard_to_find_entrance",
        AVOID,
        (
            "get straight in without hunting around for the way in",
            "walk right up to the door from the street without getting lost in backyards",
            "arrive on time without circling the block looking for the door",
        ),
        ("am short on time and can't go hunting for the way in", "want a door that's obvious from the street"),
    ),
    _i(
        "good_wifi",
        SEEK,
        (
            "join a video call from my laptop without the connection dropping",
            "upload a big batch of photos to the cloud in no time",
            "stream a lecture online without buffering",
        ),
        ("have a video call and need a connection that won't drop", "need to upload large files quickly"),
    ),
    _i(
        "cold_inside_winter",
        AVOID,
        (
            "take my coat off and properly thaw out indoors in January",
            "sit for hours in midwinter without my fingers going numb",
            "stay toasty inside on a freezing February afternoon",
        ),
        ("want to take my coat off and thaw out in January", "get numb fingers easily in winter"),
    ),
    _i(
        "great_for_kids_sports",
        SEEK,
        (
            "try a sport I've never done before without feeling judged",
            "give it a go as a complete novice with patient instructors",
            "learn from scratch with coaches who don't mind total rookies",
        ),
        ("have never tried this before and want patient instructors", "am a complete novice"),
    ),
)

INTENTS: dict[str, Intent] = {i.key: i for i in _ALL}


def intent_for(key: str) -> Intent | None:
    """The implicit intent for a static or long-term fact key, or ``None``."""
    return INTENTS.get(key)


# A phrasing that mentions food or drink only fits a place that serves them; one that names a
# day or a time of day only fits a question that does not set its own moment.
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
)
SHOP_WORDS = ("shop", "buy", "browse", "shelf", "purchase")
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
)


def _mentions(phrase: str, words: tuple[str, ...]) -> bool:
    low = phrase.lower()
    return any(re.search(rf"\b{re.escape(w.strip())}s?\b", low) for w in words)


def fitting_phrases(key: str, kind: str, *, serves_food: bool, is_shop: bool, timed: bool) -> tuple[str, ...]:
    """The ``wants`` or ``needs`` phrasings of a fact that fit the place and the question's moment."""
    intent = INTENTS[key]
    phrases = intent.wants if kind == "wants" else intent.needs
    return tuple(
        p
        for p in phrases
        if (serves_food or not _mentions(p, FOOD_WORDS))
        and (is_shop or not _mentions(p, SHOP_WORDS))
        and not (timed and _mentions(p, TIME_WORDS))
    )
