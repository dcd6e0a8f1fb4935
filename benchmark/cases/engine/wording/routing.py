"""Question skeletons for Routing (slots are filled by benchmark/cases/engine/recipes/routing.py)."""

ROUTE = (
    "What's the {best} route from {a} to {b} {by}?",
    "Plan the {best} {going} route from {a} to {b}.",
    "I'm going from {a} to {b} {by}. Which route is {best}, and how long is it?",
    "How do I get from {a} to {b} {by} {goal}?",
    "Route me from {a} to {b}, {going}, {goal}.",
    "I need to {go} from {a} to {b}. What's the {best} way?",
    "{Best} route {by} from {a} to {b}, please, with the distance and the time.",
    "Leaving {a} for {b} {by}: how far is it and how long will it take on the {best} route?",
    "Could you work out the {best} {going} route from {a} to {b}?",
    "I'm at {a} and want to reach {b} {goal}, {going}. Which way?",
    "From {a} to {b} {by}: what's the {best} option?",
    "Give me directions from {a} to {b}. I'll be {going} and want the {best} route.",
)

DETOUR = (
    "I'm {going} from {a} to {b} and need to stop at {a_noun} on the way. Plan the {best} route.",
    "Going from {a} to {b} {by}, with a stop at {a_noun}. What's the {best} plan overall?",
    "Route me from {a} to {b} {by}; I have to pop into {a_noun} somewhere along the way. Keep the whole trip {best}.",
    "On my way from {a} to {b} ({going}) I want to drop by {a_noun}. Which one makes the whole trip {best}, and what's the route?",
    "{Going} from {a} to {b}. I need {a_noun} on the way. Which stop makes the trip {best} overall?",
    "Plan a {going} trip from {a} to {b} that stops at {a_noun}, {goal}.",
)

DETOUR_RATED = (
    "I'm {going} from {a} to {b} and want to stop at {a_noun} rated {x} or higher on the way. Plan the {best} route.",
    "From {a} to {b} {by}, with a stop at {a_noun} that has at least {x} stars. What's the {best} plan?",
    "Heading {by} from {a} to {b}; I'd like to visit a well-reviewed {noun} (rating {x} or more) on the way, {goal}.",
    "On the way from {a} to {b} ({going}), which {noun} rated at least {x} should I stop at to keep the trip {best}?",
)

DETOUR_OPEN = (
    "I'm leaving {a} at {time} on {date}, {going} to {b}, and need to stop at {a_noun} that's open when I get there. Plan the {best} route.",
    "Setting off from {a} at {time} on {date} {by}, heading to {b}. I want to stop at {a_noun} on the way, and it has to be open when I arrive. What's the {best} plan?",
    "{Going} from {a} to {b}, departing at {time} on {date}: which {noun} on the way will be open when I reach it, keeping the trip {best}?",
    "It's {date}, {time}. From {a} to {b} {by} with a stop at {a_noun} that's open on arrival, {goal}.",
    "Leaving {a} at {time} on {date}, {going} to {b}: I want to call at {a_noun} that will be open when I reach it. Which one keeps the trip {best}?",
    "I'll set off {by} from {a} at {time} on {date} and end at {b}. On the way I need {a_noun} that's open by the time I get there. What's the {best} plan?",
)

NEED_NOUN = (
    "I'm {going} from {a} to {b}. On the way I'd like to stop at {a_noun} where I can {want}. Plan the {best} route.",
    "Heading from {a} to {b} {by}: somewhere on the way I want to {want}, at {a_noun}. What's the {best} plan?",
    "From {a} to {b}, {going}. I want to {want} on the way. Which {noun} should I stop at to keep the trip {best}?",
    "I'm going {by} from {a} to {b} and would like to {want} somewhere along the way, ideally at {a_noun}. {Best} route?",
    "On my way from {a} to {b} ({going}) I'd like to stop at {a_noun} where I can {want}. Plan it {goal}.",
)

NEED_ANY = (
    "I'm {going} from {a} to {b}. On the way I'd like to {want}. Plan the {best} route.",
    "Heading from {a} to {b} {by}; somewhere along the way I want to {want}. What's the {best} plan?",
    "From {a} to {b}, {going}. Along the way I'd love to {want}. {Best} route, please.",
    "Plan my trip from {a} to {b} {by}: I want to {want} on the way, {goal}.",
)

NEED_OPEN = (
    "I'm leaving {a} at {time} on {date}, {going} to {b}. On the way I want to {want}, somewhere that's open when I get there. Plan the {best} route.",
    "Departing {a} at {time} on {date} {by} for {b}: I'd like to {want} along the way, at a place that will be open when I arrive. {Best} plan?",
    "{Going} from {a} to {b}, leaving at {time} on {date}. Where on the way can I {want} that's open when I arrive, keeping the trip {best}?",
    "It's {time} on {date} and I'm about to leave {a} for {b} {by}. Somewhere on the way I'd like to {want}, at a place that's open when I get there. What's the {best} route?",
    "Plan my trip from {a} to {b} {by}, leaving at {time} on {date}: I want to {want} along the way, and the place must be open when I arrive. Keep it {best}.",
)

DETOUR_ERRAND = (
    "I'm {going} from {a} to {b} and need to {errand} on the way. Plan the {best} route.",
    "On my way from {a} to {b} ({going}) I have to {errand}. Where should I stop to keep the trip {best}?",
    "From {a} to {b} {by}; somewhere along the way I need to {errand}. What's the {best} plan?",
    "Plan a {going} trip from {a} to {b} with a stop to {errand}, {goal}.",
)
