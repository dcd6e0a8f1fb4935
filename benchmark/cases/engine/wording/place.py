"""Question skeletons for Place Perception (slots are filled by benchmark/cases/engine/recipes/place.py)."""

L0 = {
    "opentime_week": (
        "What are the opening hours of {n}?",
        "When is {n} open during the week?",
        "I'd like to drop by {n} sometime this week. What hours does it keep?",
        "Could you look up {n}'s opening times for me?",
        "Before I head over: what are the weekly opening hours of {n}?",
        "On which days and at what times is {n} open?",
    ),
    "rating": (
        "What rating does {n} have?",
        "How well rated is {n}?",
        "Is {n} any good? What's its rating?",
        "A friend mentioned {n}. What do people rate it?",
        "What's the average score people give {n}?",
        "How many stars does {n} get from reviewers?",
    ),
    "cost": (
        "How much does a visit to {n} cost per person on average?",
        "What's the typical spend per person at {n}?",
        "Roughly what will I spend per head at {n}?",
        "How pricey is {n}? Give me the average cost per person.",
        "What does an average visit to {n} set you back, per person?",
    ),
    "address": (
        "What is the address of {n}?",
        "Where exactly is {n}? I need the street address.",
        "Which street and number is {n} at?",
        "I'm sending a courier to {n}; what's its address?",
        "Can you give me the full address of {n}?",
    ),
    "place_type": (
        "What kind of place is {n}?",
        "What type of business is {n}?",
        "I keep walking past {n}. What sort of place is it?",
        "Is {n} a shop, a café or something else? Which category does it fall under?",
        "How is {n} categorised on the map?",
    ),
    "closes_on": (
        "What time does {n} close on {day}s?",
        "How late is {n} open on a {day}?",
        "Until what time can I go to {n} on a {day}?",
        "When does {n} shut on {day}s?",
    ),
    "opens_on": (
        "What time does {n} open on {day}s?",
        "How early does {n} open on a {day}?",
        "From what time is {n} open on {day}s?",
        "When does {n} open its doors on a {day}?",
    ),
    "open_on": (
        "Is {n} open at all on {day}s?",
        "Can I visit {n} on a {day}, or is it closed that day?",
        "Does {n} open on {day}s?",
        "I can only go on a {day}. Is {n} open that day?",
    ),
    "postcode": (
        "What's the postcode of {n}?",
        "Which postal code is {n} in?",
        "I'm filling in a form: what's {n}'s postcode?",
        "What postcode should I write for {n}?",
    ),
    "cuisine": (
        "What cuisine does {n} serve?",
        "What kind of food can I get at {n}?",
        "Which cuisine is {n} known for?",
        "If I eat at {n}, what style of food should I expect?",
        "What's on the menu at {n}, cuisine-wise?",
    ),
}

VALUE_PICK = {
    "max_cost": (
        "Of {all}, which is the best-rated place where I'd spend at most {y} euros per person?",
        "I have {y} EUR a head at most. Among {all}, which one has the best rating within that budget?",
        "Which is the highest-rated of {options} that costs no more than {y} euros per person?",
        "Best reviews but {y} EUR per person tops: {options}, which should it be?",
        "My budget is {y} euros per person. Of the {nouns} {all}, which affordable one is rated highest?",
    ),
    "min_rating": (
        "Of {all}, which is the cheapest place rated at least {x}?",
        "I won't go anywhere rated below {x}. Among {all}, which of the rest is cheapest per person?",
        "Which of {options} costs the least per person while still being rated {x} or higher?",
        "Cheapest decent option, please: of the {nouns} {all}, which rated-{x}-or-better one costs the least?",
        "I want a rating of {x} or more and the lowest price: {options}?",
    ),
}

OPEN_ARRIVAL = (
    "I'm leaving {o} at {time} on {date} and {going} to {d}. Will it still be open when I get there?",
    "If I set off from {o} at {time} on {date} {by}, will {d} be open when I arrive?",
    "It's {date}, {time}, and I'm at {o}. If I {go} over to {d} now, will I find it open?",
    "Will {d} be open when I get there if I start {going} from {o} at {time} on {date}?",
    "I'll {go} from {o} to {d}, setting off at {time} on {date}. Open or closed when I reach it?",
    "Heading {by} from {o} to {d} at {time} on {date}: is it worth the trip, or will it be shut by the time I arrive?",
)

OPEN_DELAYED = (
    "It's {time} on {date}. In {delay} minutes I'll leave {o} and {go} to {d}. Will it be open when I get there?",
    "I'm at {o}; it's {date}, {time}. I need another {delay} minutes here, then I'll {go} to {d}. Open when I arrive?",
    "At {time} on {date} I'm still at {o}, and I'll head off {by} to {d} in {delay} minutes. Will {d} be open by the time I get there?",
    "{date}, {time}: I'm leaving {o} in {delay} minutes, {going} to {d}. Will I find it open?",
)

OPEN_VIA = (
    "I'm at {o}. At {time} on {date} I'll {go} to {b}, spend about {dwell} minutes there, then {go} on to {d}. Will {d} be open when I get there?",
    "Leaving {o} at {time} on {date} {by}, I'll stop at {b} for {dwell} minutes and then go on to {d}. Open or closed when I arrive?",
    "Plan check for {date}: {o} at {time}, then {b} ({dwell} minutes), then {d}, all {going}. Will {d} still be open when I reach it?",
    "From {o} at {time} on {date} I'm {going} to {b}; after {dwell} minutes there I'll continue to {d}. Is {d} open when I arrive?",
)

OPEN_CHOICE = (
    "Leaving {o} at {time} on {date} {by}, which of {options} will still be open when I get there?",
    "I'm at {o} on {date} at {time} and will {go} to one of {options}. Which will be open when I arrive?",
    "Setting off from {o} at {time} on {date}, {going}: only one of {options} is open by the time I'd get there, I think. Which one?",
    "If I {go} from {o} at {time} on {date}, which of these {nouns} can I still walk into on arrival: {options}?",
)

BUDGET = (
    "{Plan_a} for the {people_a} of us at {a}, then {people_b} of us go on for {plan_b} at {b}. Is {budget} euros enough at the usual prices?",
    "We're {people_a}: {plan_a} together at {a}, and afterwards {people_b} of us want {plan_b} at {b}. Can we keep it under {budget} EUR in total?",
    "Is {budget} euros enough for {plan_a} at {a} for {people_a} people, followed by {plan_b} at {b} for {people_b}?",
    "Going by average spend per person: {people_a} of us have {plan_a} at {a}, then only {people_b} stay on for {plan_b} at {b}. Does {budget} EUR cover it?",
)

NEED_CHOICE = (
    "I want to {want}. Which of {options} should I go to?",
    "Help me choose between {options}: I'd like to {want}.",
    "Which is the best pick for me, {options}? I want to {want}.",
    "I'd like to {want}, so which of these {nouns} fits: {options}?",
    "Of {options}, which one suits me best? I want to {want}.",
    "Quick decision needed: {options}. I'd like to {want}.",
    "I'm torn between {options}. Which one lets me {want}?",
    "Where can I {want}: {options}?",
)
