"""Question skeletons for Nearby Discovery (slots are filled by benchmark/engine/recipes/nearby.py)."""

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

NEAREST_OPEN = (
    "It's {time} on {date} and I'm at {a}. Where's the nearest {noun} that's open?",
    "I'm near {a} at {time} on {date}. Which is the closest {noun} still open?",
    "On {date} at {time}, which open {noun} is nearest to {a}?",
    "Need {a_noun} near {a} right now ({date}, {time}). Which is the closest one that's open?",
    "Closest {noun} to {a} that will be open at {time} on {date}?",
    "Standing at {a}, {time} on {date}: which {noun} nearby can I actually get into, and is closest?",
)

BEST_RATED = (
    "What's the best-rated {noun} within {R} m of {a}?",
    "Within {R} metres of {a}, which {noun} has the highest rating?",
    "I'm staying near {a}. Which {noun} within {R} m do people rate highest?",
    "Among the {nouns} within {R} m of {a}, which is the top-rated?",
    "I only want the best {noun} within {R} m of {a}. Which one?",
    "Which {noun} no more than {R} m from {a} has the best reviews?",
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
