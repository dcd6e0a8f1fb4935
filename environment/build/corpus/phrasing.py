"""Sentence templates that carry no fact: openers, mentions, fillers, titles, comments, chatter.

``{m}`` is how the note names the place (full name, part of it, a nickname, a misspelling
or a vague description), ``{sub}`` the lower-cased sub-type ("coffee house").
"""

from __future__ import annotations

OPENERS = (
    "Finally tried {m}.",
    "As an exchange student in Helsinki, I keep ending up at {m}.",
    "Took my mum to {m} when she visited.",
    "Quick rainy-day stop at {m}.",
    "Third visit this month to {m}, so here's my honest take.",
    "Date night at {m}.",
    "Work-from-anywhere day at {m}.",
    "Solo trip diary, day two: {m}.",
    "Weekend with the kids, first stop {m}.",
    "Helsinki newbie here, a colleague sent me to {m}.",
    "{m} has been on my list since I moved here.",
    "Stopped by {m} on a grey afternoon.",
    "Dragged my friends along to {m} again.",
    "Popped into {m} on my way home from work.",
    "A friend from Tampere insisted we check out {m}.",
    "Had a free hour in the centre, so {m} it was.",
    "Sharing my experience at {m} since people keep asking.",
    "Small review of {m}, no sponsorship.",
)

MULTI_OPENERS = (
    "Perfect little loop in the centre: {a}, then {b}.",
    "Spent Saturday hopping between {a} and {b}.",
    "If you only have one afternoon: start at {a}, walk to {b}.",
    "Comparing {a} and {b} so you don't have to.",
    "My Sunday route: {a} first, {b} after.",
)
MULTI_THIRD = (
    "We ended the day at {c}.",
    "Finished with a quick stop at {c}.",
    "{c} was on the way too, so we peeked in.",
)
MULTI_VERDICTS = (
    "{a} won for atmosphere, {b} for value.",
    "Both are within walking distance, easy combo.",
    "Honestly I liked {b} more but {a} is closer to the tram.",
    "Would do this route again with visiting friends.",
    "{a} was busier than expected, {b} was calm.",
)

FILLERS = {
    "Food & Beverages": (
        "The menu changes a little with the seasons.",
        "Prices are what you'd expect in central Helsinki.",
        "I had the daily special and it was solid.",
        "They also do takeaway if you're in a hurry.",
        "The lunch deal includes salad and bread.",
        "Tables are a bit close together.",
    ),
    "Shopping": (
        "I ended up buying more than I planned.",
        "Prices are fair compared to the big chains.",
        "The shop is bigger than it looks from the street.",
        "Nice mix of basics and special pieces.",
    ),
    "Culture": (
        "Give yourself at least an hour.",
        "The building itself is worth seeing.",
        "Some texts are only in Finnish and Swedish.",
        "I learned a lot about the history of the city.",
    ),
    "Scenery Spot": (
        "It's an easy walk from the centre.",
        "Best in the morning before the crowds.",
        "Bring snacks, there's not much around.",
        "Looks completely different in winter.",
    ),
    "Accommodation": (
        "Location is hard to beat.",
        "Rooms are compact but well designed.",
        "Check-in was smooth.",
        "Walking distance to the railway station.",
    ),
}
GENERIC_FILLERS = (
    "Easy to reach on foot from the centre.",
    "It's close to a tram stop.",
    "I'd go back.",
    "Took a few photos for the album.",
    "Not a big place, but it does the job.",
    "The area around it is lovely for a walk.",
    "Went on a weekday around three.",
)

CLOSERS = (
    "Would recommend.",
    "Solid 4/5 from me.",
    "Not sure it's worth a special trip, but nice if you're nearby.",
    "Saving this for when friends visit.",
    "Anyone been recently?",
    "Let me know your favourites in the area!",
    "Will definitely be back.",
    "8/10, would return.",
)

REPOST_OPENERS = (
    "Reposting since a few people asked.",
    "Sharing this again for the newcomers.",
    "Old post, still true.",
    "Bumping my review from before.",
)

TITLES = (
    "{m} is a hidden gem",
    "Hidden gem in central Helsinki",
    "My go-to {sub}",
    "Worth the hype? {m}",
    "{m} review",
    "Rainy day plan: {m}",
    "Helsinki diary #{n}",
    "Found my new favourite {sub}",
    "Don't skip {m}",
    "Honest thoughts on {m}",
    "{m} after {n} visits",
    "Weekend find",
    "Little Helsinki moment",
    "Saving this {sub} for later",
    "Is {m} overrated?",
)
MULTI_TITLES = (
    "Half-day route in the centre",
    "Two spots, one afternoon",
    "Helsinki loop for visitors",
    "Where I took my friends this weekend",
)
OUTDATED_TITLES = (
    "Throwback: {m}",
    "{m} event recap",
    "Last year at {m}",
    "Memories from {m}",
)

OUTDATED_EVENTS = (
    "They had a summer terrace party on {dates} that was unforgettable.",
    "The pop-up they ran on {dates} was so much fun, I hope they do it again.",
    "I went for the opening weekend special on {dates}, everything was half price.",
    "Their anniversary celebration on {dates} had free cake for everyone.",
    "During their big sale on {dates} the place was packed.",
)

COMMENTS_GENERIC = (
    "saving this!",
    "which metro stop is closest?",
    "adding to my list",
    "how are the prices?",
    "is it open on Sundays?",
    "going there this weekend",
    "looks so nice",
    "thanks for sharing",
    "do they take reservations?",
    "nice photos",
    "been wanting to go!",
    "love this place",
    "is it wheelchair accessible?",
    "how long did you stay?",
    "can you go without booking?",
    "is it far from Kamppi?",
    "omg need to go",
    "bookmarked",
    "what did you order?",
    "did you go alone?",
    "how was parking?",
    "great review",
    "agree with everything",
    "I work nearby, will check it out",
    "is it good for a first visit to Helsinki?",
    "followed for more Helsinki tips",
    "can I pay with MobilePay?",
    "nice find",
    "wish I'd known this last month",
    "tag me next time you go",
)
COMMENTS_CHATTER = (
    "the trams were a mess today",
    "anyone else freezing this week?",
    "Helsinki in November is a vibe",
    "the ferry to Suomenlinna was delayed again",
    "rent in Kallio is getting crazy",
    "can't believe it snowed in April",
    "the sun finally came out!",
    "HSL app crashed on me again",
    "who's going to Flow this year?",
)
REPLY_PREFIXES = ("Can confirm, ", "Same here: ", "Went last week, ", "Agree, ", "Yes! ", "")

CHATTER_TITLES = (
    "Helsinki weather update",
    "Transport rant",
    "Life in Helsinki",
    "Sunday thoughts",
    "Expat diary",
    "Moving to Helsinki tips",
    "Helsinki on a budget",
    "Random city moment",
)
CHATTER_SENTENCES = (
    "It rained sideways the whole day and then the sun came out at eight pm.",
    "The tram was cancelled again so I walked across the whole centre.",
    "Anyone know why the metro was stopped this morning?",
    "Helsinki in winter means going to work in the dark and coming home in the dark.",
    "That cafe near the station was packed again, I couldn't get a seat.",
    "Is it just me or did rent go up everywhere this year?",
    "Went to a place on the Esplanadi whose name I forgot, the cake was great.",
    "The seagulls at the market square stole my lunch again.",
    "Finally got my residence permit, celebrating tonight.",
    "Bus 24 never comes on time, I swear.",
    "Snow in May. Welcome to Finland.",
    "Midsummer is coming and the city will be empty.",
    "Best thing about Helsinki: every sauna evening with friends.",
    "Tried learning Finnish cases today and gave up after the partitive.",
    "The ferry to Tallinn was full of people buying cheap drinks.",
    "City bikes are back, spring is official.",
    "That little shop on the corner by the church closed, does anyone know why?",
    "Someone recommended a bar near the harbour but I lost the name.",
    "Grey sky for nine days straight.",
    "My Finnish colleagues just went silent when I asked about small talk.",
)
CHATTER_TAGS = ("helsinki", "finland", "expatlife", "weather", "citylife", "nordic", "dailylife")
GENERIC_TAGS = (
    "weekend",
    "travel",
    "finland",
    "visithelsinki",
    "foodie",
    "citybreak",
    "solotravel",
    "localguide",
    "nordic",
    "explore",
)
LANDMARKS = (
    "the station",
    "the cathedral",
    "the market square",
    "Kamppi",
    "the Esplanadi",
    "Stockmann",
    "the harbour",
    "the Ateneum",
)
