"""Question skeletons for Trip Design (slots are filled by benchmark/cases/engine/recipes/trip.py)."""

NAMED = (
    "Starting at {s} and ending at {e}, I need to visit {w}. What's the {best} order, {going}?",
    "I'm {going} today: from {s} to {e}, stopping at {w} on the way. Plan the {best} route.",
    "Plan my errands {by}: begin at {s}, finish at {e}, and visit {w} in between. I want the {best} itinerary.",
    "I have to call at {w} between {s} and {e}. In which order should I {go} to make it {best}?",
    "From {s} to {e} {by}, via {w} in any order. What's the {best} sequence?",
    "Help me order my stops: I start at {s}, end at {e}, and need {w} in between, {going} {goal}.",
)

NAMED_RULE = (
    "Starting at {s} and ending at {e}, I need to visit {w}. {Rule} What's the {best} order, {going}?",
    "I'm {going} from {s} to {e} and must stop at {w}. {Rule} Plan the {best} route.",
    "Errands {by} from {s} to {e}: {w}. {Rule} Which order is {best}?",
    "Between {s} and {e} I have to visit {w} ({going}). {Rule} Give me the {best} plan.",
    "I'll {go} from {s} to {e}, calling at {w}. {Rule} Work out the order that is {best}.",
)

NAMED_TIMED = (
    "I leave {s} at {time} on {date} and end at {e}, {going}. In between I need {w}, about {dwell} minutes at each, "
    "and every place must be open while I'm there. What's the {best} order?",
    "It's {date}, {time}, and I'm at {s}. I want to visit {w} ({dwell} minutes each) and finish at {e}, all while "
    "they're open. Plan the {best} route {by}.",
    "Setting off from {s} at {time} on {date} {by}: {w}, then on to {e}. I spend about {dwell} minutes per stop and "
    "need each place open when I'm there. {Best} order?",
    "Plan my {date} {by}: start at {s} at {time}, visit {w} ({dwell} minutes each, open when I arrive), end at {e}. "
    "I want it {best}.",
    "Leaving {s} at {time} on {date}, {going}, I must get to {w} and then end at {e}. Each stop takes about {dwell} "
    "minutes and nothing may be closed when I get there. Which order is {best}?",
)

TOUR = (
    "Starting from {s}, I want to visit every {noun} within {R} m rated {x} or higher. Plan the {best} {going} route; "
    "I can finish at any of them.",
    "From {s}, take me to all the {nouns} within {R} metres with a rating of at least {x}. {Best} route {by}, ending "
    "at whichever comes last.",
    "I'm doing a tour of the best {nouns} near {s} (within {R} m, rating {x} or more). What's the {best} order {by}?",
    "In which order should I {go} to visit every {noun} within {R} m of {s} rated {x} or more, {goal}? I'll end at "
    "the last one.",
    "Plan a {going} crawl from {s} through all the {nouns} within {R} m that are rated {x} or higher, {goal}. Any of "
    "them can be the last stop.",
    "I'm at {s} and want to see every {noun} within {R} metres that has a rating of {x} or more, {going}. In which "
    "order is the trip {best}? I don't need to come back.",
    "Every {noun} rated at least {x} within {R} m of {s}: take me to all of them {by}, {goal}, finishing wherever "
    "the route ends.",
)

ORDER_RULES = (
    "I have to pick up a parcel at {x} before I go to {y}.",
    "I promised to meet a friend at {x} first, and only then go to {y}.",
    "I need to drop my bag off at {x} before visiting {y}.",
    "{X} has to come before {y}, because I'm collecting something there.",
    "I can only go to {y} after I've been to {x}.",
)
# A rule about the implied stop names it as "the extra stop" (never "that", which a reader could tie to the
# named stop the sentence before: "I must call at X. That should come after my stop at X.").
IMPLIED_BEFORE = (
    "The extra stop has to come before {y}.",
    "I'd like to make the extra stop before I go to {y}.",
    "The extra stop should come earlier than {y}.",
    "I want the extra stop done before my visit to {y}.",
)
IMPLIED_AFTER = (
    "The extra stop has to come after {x}.",
    "I'd rather make the extra stop only after I've been to {x}.",
    "The extra stop should come later than {x}.",
    "I want to visit {x} before the extra stop.",
)

NEED_TIMED = (
    "I'm leaving {s} at {time} on {date} and heading to {e} {by}. On the way I want to {want}, and I also need to "
    "stop at {w}. I'll spend about {dwell} minutes at each stop and every place has to be open while I'm there. "
    "Plan the {best} route.",
    "It's {time} on {date}. I'm {going} from {s} to {e}, calling at {w}, and somewhere along the way I'd like to "
    "{want}. About {dwell} minutes per stop, and everything must be open when I get there. What's the {best} plan?",
    "Plan my {date} {by}: leave {s} at {time}, stop at {w}, find somewhere to {want}, and end at {e}. I stay about "
    "{dwell} minutes at each stop and they all need to be open. Make it {best}.",
    "From {s} (leaving at {time}, {date}) to {e}, {going}: I need {w}, and I also want to {want}. {dwell} minutes a "
    "stop, everything open on arrival. {Best} route?",
    "On {date} I set off from {s} at {time} and finish at {e}, {going}. I have to visit {w}, and on the way I'd "
    "like to {want}. I spend about {dwell} minutes per stop, and nothing may be closed when I arrive. {Best} "
    "order, please.",
    "Leaving {s} at {time} on {date} {by}, I must stop at {w} before ending at {e}, and I'd also like to {want} "
    "somewhere along the way. Each stop takes about {dwell} minutes and every place has to be open then. What's "
    "the {best} plan?",
    "I've got {w} to visit between {s} and {e} on {date}, leaving at {time}, {going}. I also want to {want}. "
    "With about {dwell} minutes at each stop and everything open when I get there, which route is {best}?",
)

NEED_RULE = (
    "I'm leaving {s} and heading to {e} {by}. On the way I want to {want}. I also need to stop at {w}. {Rule} "
    "Plan the {best} route.",
    "I'm {going} from {s} to {e}: I'd like to {want} somewhere on the way, and I must call at {w}. {Rule} What's "
    "the {best} plan?",
    "Route me from {s} to {e} {by}. Stops: {w}, plus somewhere I can {want}. {Rule} Keep it {best}.",
    "From {s} to {e}, {going}, via {w}. I also want to {want} along the way. {Rule} {Best} itinerary, please.",
    "Between {s} and {e} ({going}) I'll stop at {w}, and I'd like to {want} somewhere on the way. {Rule} Which "
    "order is {best}?",
    "Plan my trip {by} from {s} to {e}: a stop at {w}, and somewhere to {want}. {Rule} Make it {best}.",
    "I'm heading from {s} to {e} {by} and need to call at {w}. Along the way I'd also like to {want}. {Rule} "
    "What's the {best} route?",
)
