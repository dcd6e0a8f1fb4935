"""Question skeletons for Nearby Discovery (slots are filled by benchmark/cases/engine/recipes/nearby.py)."""

NEAREST = (
    "What's the nearest {noun} to {a}?",
    "I'm at {a}. Where's the closest {noun}?",
    "Which {noun} is closest to {a}?",
    "Is there {a_noun} near {a}? I want the closest one.",
    "I'm standing outside {a} and need {a_noun}. Which one is nearest?",
    "Point me to the {noun} nearest to {a}, please.",
)

NEAREST_WITHIN = (
    "Find me the closest {noun} within {R} m of {a}.",
    "Within {R} metres of {a}, which {noun} is nearest?",
    "I'm at {a}. Which is the nearest {noun}, no more than {R} m away?",
    "Any {noun} within {R} m of {a}? Give me the closest.",
)

NEAREST_RATED = (
    "What's the closest {noun} to {a} rated at least {x}?",
    "Near {a}, which {noun} with a rating of {x} or more is closest?",
    "I only go to places rated {x} or better. Which such {noun} is nearest to {a}?",
    "Closest {noun} to {a} with at least {x} stars?",
)

NEAREST_CHEAP = (
    "I'm at {a} on a budget: which is the nearest {noun} where it's {y} EUR or less per person?",
    "Closest {noun} to {a} that costs at most {y} euros a head?",
    "Which {noun} near {a} is the closest one where I'd spend no more than {y} EUR per person?",
    "Find the nearest {noun} to {a} with an average spend of {y} euros or less.",
)

OPEN_FOR = (
    "It's {time} on {date} and I'm at {a}. I'd like to go to {a_noun} for about {D} minutes. Which is the nearest one that stays open that long?",
    "I'm near {a} at {time} on {date} and need {a_noun} for the next {D} minutes. Which is the closest one that won't close on me?",
    "On {date} at {time}, which {noun} nearest to {a} is open for at least the next {D} minutes?",
    "Standing at {a}, {time} on {date}: I want to spend {D} minutes in {a_noun}. Which is the closest that stays open the whole time?",
    "Closest {noun} to {a} where I can stay from {time} on {date} for {D} minutes without being thrown out at closing time?",
)

RATED_OPEN = (
    "It's {time} on {date}. What's the best-rated {noun} within {R} m of {a} that's open right now?",
    "Within {R} metres of {a}, which {noun} open at {time} on {date} has the highest rating?",
    "I'm at {a} on {date} at {time}. Of the {nouns} within {R} m that are open, which do people rate highest?",
    "At {time} on {date}, which open {noun} no more than {R} m from {a} has the best reviews?",
    "Top-rated {noun} within {R} m of {a} that I can still get into at {time} on {date}?",
)

SHORTEST_WALK = (
    "Which {noun} is the shortest walk from {a}?",
    "On foot from {a}, which {noun} has the shortest walking route?",
    "I'm at {a} and want the {noun} I can walk to over the least distance. Which one?",
    "Counting the actual streets, which {noun} is the shortest walk from {a}?",
    "Walking from {a}, which {noun} is nearest by the shortest route on foot?",
)

NEED_NOUN = (
    "I'm at {a} and want to {want}. Which {noun} within {R} m should I try?",
    "Within {R} m of {a}, is there {a_noun} where I can {want}?",
    "Near {a} (no more than {R} m away), which {noun} lets me {want}?",
    "I'd like to {want}. Any {noun} within {R} metres of {a}?",
)

NEED_ANY = (
    "I'm at {a} and I want to {want}. Where can I go within {R} m?",
    "Somewhere within {R} metres of {a} where I can {want}?",
    "Near {a} (at most {R} m away), where could I {want}?",
    "Is there anywhere within {R} m of {a} where I can {want}?",
)

NEED_OPEN = (
    "It's {time} on {date} and I'm at {a}. I want to {want}. Where within {R} m is open for that?",
    "At {time} on {date}, near {a} (within {R} m), where can I go to {want}?",
    "I'm around {a} on {date} at {time} and want to {want}. Which place within {R} m will be open?",
    "On {date} at {time}: somewhere open within {R} m of {a} where I can {want}?",
)

NEED_NEAREST_NOUN = (
    "I'm at {a}. Where's the nearest {noun} where I can {want}?",
    "Which {noun} closest to {a} lets me {want}?",
    "Closest {noun} to {a} where I could {want}?",
    "I want to {want}. What's the nearest {noun} to {a} for that?",
)

NEED_NEAREST_ANY = (
    "I'm at {a} and want to {want}. Where's the nearest place for that?",
    "What's the closest spot to {a} where I can {want}?",
    "From {a}, where's the nearest place I can go to {want}?",
    "I'd like to {want}. Which place nearest to {a} can I go to?",
)

ERRAND_NEAREST = (
    "Where's the nearest place to {errand} from {a}?",
    "I need to {errand}. What's the closest place to {a} for that?",
    "I'm at {a} and want to {errand}. Where's the nearest spot?",
    "Closest place to {errand} near {a}?",
    "From {a}, where can I {errand} without going far? The nearest option, please.",
)
