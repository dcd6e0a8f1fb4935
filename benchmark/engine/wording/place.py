"""Question skeletons for Place Perception (slots are filled by benchmark/engine/recipes/place.py)."""

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
    "cuisine": (
        "What cuisine does {n} serve?",
        "What kind of food can I get at {n}?",
        "Which cuisine is {n} known for?",
        "If I eat at {n}, what style of food should I expect?",
        "What's on the menu at {n}, cuisine-wise?",
    ),
}

COMPARE = {
    "rating": (
        "Of the {nouns} {all}, which one is rated best?",
        "I'm torn between {all}. Which of them has the highest rating?",
        "Which has the better reviews: {options}?",
        "Going by ratings alone, should I pick {options}?",
        "Rank-wise, which is the top-rated of these {nouns}: {options}?",
    ),
    "cost": (
        "Which is cheapest per person: {options}?",
        "I'm on a tight budget. Of {all}, where will I spend the least per head?",
        "Between the {nouns} {all}, which costs the least on average?",
        "Money's tight this month: {options}, which is the most affordable per person?",
        "If I only care about price, which should I choose: {options}?",
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

OPEN_CHOICE = (
    "It's {time} on {date}. Which of {options} is open right now?",
    "On {date} at {time}, which of these {nouns} can I still walk into: {options}?",
    "I need to go somewhere at {time} on {date}: {options}. Which one will actually be open?",
    "Only one of {options} is open at {time} on {date}, I think. Which one?",
    "At {time} on {date}, where can I go: {options}?",
)

CLOSER = {
    "distance": (
        "From {o}, which is the shorter walk: {x} or {y}?",
        "I'm at {o}. Is {x} or {y} less far to walk to?",
        "Walking from {o}, would {x} or {y} be the shorter trip on foot?",
        "Which is nearer on foot from {o}, counting the actual walking route: {x} or {y}?",
    ),
    "time": (
        "I'm at {o}. Is it quicker to {go} to {x} or to {y}?",
        "From {o}, which can I reach faster {by}: {x} or {y}?",
        "Starting at {o} and {going}, which takes less time to get to: {x} or {y}?",
        "{Going} from {o}, would I get to {x} or {y} sooner?",
    ),
}

BUDGET = (
    "There are {people} of us. {Plan_a} at {a} and then {plan_b} at {b}: can we keep it under {budget} euros in total?",
    "{People} of us want {plan_a} at {a} followed by {plan_b} at {b}. Will {budget} EUR cover it at the usual prices?",
    "Is {budget} euros enough for {people} people to have {plan_a} at {a} and {plan_b} at {b}?",
    "Our group of {people} has {budget} euros for the afternoon: {plan_a} at {a}, then {plan_b} at {b}. Does it fit the budget?",
    "Going by average spend per person, can {people} of us do {plan_a} at {a} and {plan_b} at {b} for {budget} euros or less?",
)

NEED_FIND = (
    "Which {noun} in town is the place to {want}?",
    "I want to {want}. Is there {a_noun} in the area where I can do that?",
    "Where should I go if I want to {want}? I'm thinking of {a_noun}.",
    "Can you find me {a_noun} where I can {want}?",
    "I'd love to {want}. Which {noun} would you send me to?",
    "Looking for {a_noun}: somewhere I can {want}. Any idea which one?",
)

NEED_FIND_OPEN = (
    "It's {time} on {date} and I want to {want}. Which {noun} is open now where I can do that?",
    "On {date} at {time} I'd like to {want}. Which {noun} can I go to that will be open?",
    "I'm free at {time} on {date} and want to {want}. Find me {a_noun} that's open then.",
    "At {time} on {date}, which open {noun} lets me {want}?",
)

NEED_FIND_RATED = (
    "I want to {want}, and only at {a_noun} rated {x} or better. Which one?",
    "Which {noun} with a rating of at least {x} is the place to {want}?",
    "Find me a well-reviewed {noun} (at least {x} stars) where I can {want}.",
    "I'd like to {want}; the {noun} has to be rated {x} or higher. Where should I go?",
)

NEED_CHOICE = (
    "I {need}. Which of {options} should I go to?",
    "Help me choose between {options}: I {need}.",
    "Which is the better pick for me, {options}? I {need}.",
    "I {need}, so which of these {nouns} fits: {options}?",
    "Of {options}, which one suits me best? I {need}.",
    "Quick decision needed: {options}. I {need}.",
)
