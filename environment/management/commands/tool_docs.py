"""Write docs/tools.md from the tool registry, with examples computed against a built city.

Every example call runs through the tool gateway at generation time, so the documented
results are what the tools really return. The example arguments are chosen from the city's
own data by the rules in :func:`example_arguments`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from environment.tools.gateway import call_tool
from environment.tools.registry import TOOLSETS, tools_for

# Example argument choices: the first candidate that finds something in the city is used.
PLACE_WORDS = ("cafe", "kahvila", "museum", "museo", "hotel")
NOTE_KEYWORDS = ("coffee AND (bun OR cake)", "coffee OR cafe")  # else a word of the example place's name
NEIGHBOURHOOD_M = 1000  # the routing examples go from the example place to places this close
DESTINATION_TYPES = (["Culture"], ["Scenery Spot"], None)  # the route's end: the farthest listed place of these
NEARBY_RADIUS_M = 300
ROUTE_BUFFER_M = 50
LIST_KEEP = 3  # example results show this many items of a list
STRING_KEEP = 240  # ... and this many characters of a long string

RULES = """\
## Conventions

- Costs are EUR per person (`cost`, `min_cost`, `max_cost`); ratings run from 1 to 5.
- Keyword filters (`place_types`, `geo_tag`, `social_mem`) take a list or a comma-separated
  string. Matching is case- and accent-insensitive substring matching.
- List results say how much matched: `total_matched`, `returned`, `truncated`, and a `note`
  when the list was cut or is empty. Caps: 20 results for `place_search`, `nearby_search` and
  the agent's `search_notes`; 10 notes (with comments) for the engine's `search_notes`;
  `sample_place` returns 1 to 50 places; `multi_stop_routing` returns `max_orderings`
  orderings (default 50, at most 5040).
- `place_search` counts at most 2,000 matches, so a broad search costs the same in any city:
  past that, `total_matched` is 2,000, `total_matched_capped` is `true` and the `note` says
  "more than 2000". The cap is above Helsinki's 1,459 places, so there every count is exact.

## Matching and ordering

- **place_search**: every word of `query_name` must occur in the place's name, alias or
  place_type (an empty `query_name` matches every place). `place_types` matches when ANY
  entry occurs in the `"Top|Sub"` place_type; `geo_tag` when ANY keyword occurs in the name,
  alias or `tag` (OpenStreetMap keys plus the static attributes distilled from posts, each
  worded as its posters word it: the same thing may read "Facility: Kids play corner" at one
  place and "Family: Toy corner" at another); `social_mem` (engine only) when ANY keyword
  occurs in the hidden `long_mem` or `short_mem`, which an agent learns only from notes and
  comments (docs/corpus.md, "The evidence rule").
  `min_rating`/`max_rating` must lie in 1..5, costs be >= 0, and min <= max.
  Order: name relevance (exact name, name prefix, name contains, other), then rating
  (highest first, unrated last), then name, then place_id.
- **nearby_search**: `center` is a place_id (radius > 0 and <= 5000 m) or a route object
  `{"start", "end", "vehicle"}` (buffer > 0 and <= 1000 m around the fastest route for that
  vehicle, default driving). The center place (or the route's start and end) is left out.
  The same filters as place_search apply. Order: distance (`distance_m`, to the place or to
  the route line), then place_id.
- **search_notes**: PostgreSQL full-text search (english configuration, stemmed: "dogs"
  finds "dog") over title, text, tags and comments. Words combine with `AND`, `OR`, `NOT`
  (upper case) and parentheses; adjacent words are joined by AND; commas count as spaces;
  `"double quotes"` make a phrase; at most 32 terms. Order: relevance (`ts_rank`: the title
  weighs most, then text and tags, then comments), then `liked_count` (highest first), then
  note_id.
- **sample_place**: a pseudo-random sample that depends only on `seed` (same seed, same places).

## Routing

- One graph per vehicle on the city's OpenStreetMap ways: walking uses every walkable way in
  both directions at 1.4 m/s; cycling respects one-way cycling rules at 4.2 m/s; driving
  respects one-way streets at each way's speed. Edge lengths are haversine metres.
- Each place snaps to the nearest street-level (not tunnel) node of its vehicle's largest
  strongly connected component, so every place reaches every other place. A route includes
  the straight connectors place to node at both ends (each at least 1 m; walked at 1.4 m/s
  when driving).
- `mode="time"` minimises seconds, `mode="distance"` metres; both report the chosen path's
  `total_distance_m` and `total_time_s`, rounded to 0.1. Walking and cycling have one speed,
  so both modes pick the same path. `avoid_way_ids` (at most 200) removes those ways; when
  nothing connects the places any more the call fails with `empty_result`.
- Steps group consecutive edges by road name ("Head north on ...", "Continue onto",
  "Turn [slight|sharp] left/right onto", "Make a U-turn onto", "Arrive at destination") and
  list each step's `way_ids`; step distances add up to the total up to rounding.
- **multi_stop_routing** takes 2 to 7 distinct stops (`start_id`/`end_id` must be among them)
  and scores every ordering. An ordering's totals are the sums of its legs exactly as
  `routing` reports them, so an agent adding up routing calls gets the same numbers.
  Orderings are sorted by the optimised quantity, then the other one, then the place_ids.

## Errors

A failed call returns `{"error": {"kind", "message", "parameter", "allowed"}}` (the last two
when they apply), never a stack trace. Kinds: `invalid_parameter` (bad or missing argument,
unknown parameter, malformed keyword logic), `not_found` (unknown place_id, note_id or tool),
`empty_result` (no route exists), `other` (city not built, internal error). Successful calls
are also labelled in the logs: `truncated` (a list was cut) and `empty_result` (nothing
matched). Examples from this city:
"""


class Command(BaseCommand):
    help = "Write docs/tools.md from the tool registry, with example calls run against a built city."

    def add_arguments(self, parser):
        parser.add_argument("--output", default=str(Path(settings.BASE_DIR) / "docs" / "tools.md"))
        parser.add_argument("--city", default=None, help="City name (default: settings.LIFEPLANNER_CITY)")

    def handle(self, *args, **opts):
        from environment.tools.context import CityNotBuilt, city_context

        try:
            ctx = city_context(opts["city"])
        except CityNotBuilt as exc:
            raise CommandError(str(exc)) from None
        text = render(ctx)
        Path(opts["output"]).write_text(text, encoding="utf-8")
        self.stdout.write(f"wrote {opts['output']} ({len(text.splitlines())} lines, city {ctx.city_name})")


# ---------------------------------------------------------------- examples


def _run(ctx, toolset: str, name: str, arguments: dict) -> dict:
    call = call_tool(toolset, name, arguments, context=ctx)
    if not call.ok:
        raise CommandError(f"example {toolset}/{name} {arguments} failed: {call.error}")
    return call.result


def _first_hit(ctx, tool: str, candidates: list[dict]) -> tuple[dict, list[dict]]:
    for arguments in candidates:
        results = _run(ctx, "agent", tool, arguments)["results"]
        if results:
            return arguments, results
    raise CommandError(f"no example for {tool}: none of {candidates} finds anything in city {ctx.city_name!r}")


def example_arguments(ctx) -> dict[tuple[str, str], dict]:
    """Example arguments per (toolset, tool), chosen from the city's data."""
    place_query, places = _first_hit(ctx, "place_search", [{"query_name": w} for w in PLACE_WORDS])
    anchor = places[0]
    start = anchor["place_id"]
    around = [
        r["place_id"]
        for r in _run(ctx, "agent", "nearby_search", {"center": start, "radius_meters": NEIGHBOURHOOD_M})["results"]
    ]
    if len(around) < 3:
        raise CommandError(f"fewer than 3 places within {NEIGHBOURHOOD_M} m of {start}")
    _, destinations = _first_hit(
        ctx,
        "nearby_search",
        [{"center": start, "radius_meters": NEIGHBOURHOOD_M, "place_types": t} for t in DESTINATION_TYPES],
    )
    far = destinations[-1]["place_id"]
    stops = [start, *[p for p in around if p != far][:2], far]
    name_words = sorted(anchor["name"].split(), key=len, reverse=True)[:1]
    note_query, notes = _first_hit(ctx, "search_notes", [{"keyword": k} for k in (*NOTE_KEYWORDS, *name_words)])
    answer = {"result": {"plan": [{"place_id": start, "name": anchor["name"]}, {"place_id": far}]}}
    top_type = anchor["place_type"].split("|")[0]
    return {
        ("agent", "place_search"): place_query,
        ("agent", "place_detail"): {"place_id": start},
        ("agent", "nearby_search"): {"center": start, "radius_meters": NEARBY_RADIUS_M},
        ("agent", "routing"): {"start_place_id": start, "end_place_id": far, "vehicle": "walking"},
        ("agent", "search_notes"): note_query,
        ("agent", "note_detail"): {"note_id": notes[0]["note_id"]},
        ("agent", "submit_answer"): answer,
        ("engine", "place_search"): {**place_query, "place_types": [top_type]},
        ("engine", "nearby_search"): {
            "center": {"start": start, "end": far, "vehicle": "walking"},
            "radius_meters": ROUTE_BUFFER_M,
        },
        ("engine", "routing"): {"start_place_id": start, "end_place_id": far, "mode": "distance", "vehicle": "cycling"},
        ("engine", "sample_place"): {"num_samples": 2, "seed": 0},
        ("engine", "multi_stop_routing"): {
            "stop_ids": stops,
            "start_id": start,
            "vehicle": "walking",
            "max_orderings": 3,
        },
        ("engine", "search_notes"): note_query,
        ("engine", "submit_answer"): answer,
        ("errors", "nearby_search"): {"center": start, "radius_meters": -5},
        ("errors", "place_detail"): {"place_id": "N0"},
    }


def shorten(value):
    """The value with long lists cut to LIST_KEEP items ("… N more") and long strings cut."""
    if isinstance(value, dict):
        return {k: shorten(v) for k, v in value.items()}
    if isinstance(value, list):
        kept = [shorten(v) for v in value[:LIST_KEEP]]
        return kept + ([f"… {len(value) - LIST_KEEP} more"] if len(value) > LIST_KEEP else [])
    if isinstance(value, str) and len(value) > STRING_KEEP:
        return value[:STRING_KEEP] + f"… ({len(value) - STRING_KEEP} more characters)"
    return value


# ---------------------------------------------------------------- rendering

_NUMBER_LIST = re.compile(r"\[\s*(-?[\d.eE+]+(?:,\s*-?[\d.eE+]+)*)\s*\]")


def _json_block(value) -> list[str]:
    text = json.dumps(value, ensure_ascii=False, indent=2)
    # Lists of numbers (coordinates, way ids) on one line keep the examples readable.
    text = _NUMBER_LIST.sub(lambda m: "[" + ", ".join(re.split(r",\s*", m.group(1))) + "]", text)
    return ["```json", text, "```"]


def _type(prop: dict) -> str:
    if "enum" in prop:
        return "one of " + ", ".join(json.dumps(v) for v in prop["enum"])
    if "$ref" in prop:
        return prop["$ref"].rsplit("/", 1)[-1] + " object"
    if "anyOf" in prop:
        return " or ".join(_type(p) for p in prop["anyOf"])
    if prop.get("type") == "array":
        return "array of " + _type(prop.get("items", {}))
    return prop.get("type", "any JSON")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _parameter_table(tool) -> list[str]:
    lines = ["| Parameter | Type | Required | Default | Description |", "|---|---|---|---|---|"]
    for name, info in tool.parameters.items():
        default = "" if info["required"] else f"`{json.dumps(info['default'])}`"
        lines.append(
            f"| `{name}` | {_cell(_type(info['schema']))} | {'yes' if info['required'] else 'no'} "
            f"| {default} | {_cell(info['description'])} |"
        )
    return lines


def _tool_section(ctx, tool, arguments: dict) -> list[str]:
    result = _run(ctx, tool.toolset, tool.name, arguments)
    flags = "" if tool.toolset == "agent" else " --toolset engine"
    if ctx.city_name != settings.LIFEPLANNER_CITY:
        flags += f" --city {ctx.city_name}"
    quoted = json.dumps(arguments, ensure_ascii=False).replace("'", "'\\''")  # a shell single-quoted word
    cli = f"python manage.py call_tool{flags} {tool.name} '{quoted}'"
    return [
        f"### {tool.name}",
        "",
        tool.description,
        "",
        *_parameter_table(tool),
        "",
        "Example call:",
        "",
        *_json_block(arguments),
        "",
        f"From the command line: `{cli}`",
        "",
        "Example result:",
        "",
        *_json_block(shorten(result)),
        "",
    ]


def _error_examples(ctx, examples) -> list[str]:
    lines = []
    for (group, name), arguments in examples.items():
        if group == "errors":
            call = call_tool("agent", name, arguments, context=ctx)
            lines += [f"`{name}` with `{json.dumps(arguments)}`:", "", *_json_block(call.observation()), ""]
    return lines


def render(ctx) -> str:
    """The whole of docs/tools.md for the city of ``ctx``."""
    examples = example_arguments(ctx)
    lines = [
        "# LifePlanner tools",
        "",
        "Generated by `python manage.py tool_docs` from the tool registry (`environment/tools/`). "
        f"Examples were run through the tool gateway against city `{ctx.city_name}` (version "
        f"`{ctx.city_version}`); long lists show the first {LIST_KEEP} items and long texts are cut.",
        "",
        "Two toolsets: `agent` (what an evaluated agent gets, the paper's table 7) and `engine` (what the "
        "data engine uses to write cases, table 8). MCP clients see the same tools: see `docs/mcp.md`.",
        "",
        RULES,
        *_error_examples(ctx, examples),
    ]
    for toolset in TOOLSETS:
        lines += [f"## The {toolset} toolset", ""]
        for tool in tools_for(toolset):
            arguments = examples.get((toolset, tool.name))
            if arguments is None:
                raise CommandError(f"no example arguments for {toolset}/{tool.name}; add them to example_arguments")
            lines += _tool_section(ctx, tool, arguments)
    return "\n".join(lines).rstrip() + "\n"
