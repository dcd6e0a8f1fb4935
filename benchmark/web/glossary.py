"""What each number on the board means: the glossary page (/glossary/) and the headers' tooltips.

One entry per metric, written to agree with docs/metrics.md and the paper (section 3.2). The
leaderboard and the run page take each header's tooltip (``tip``) and link (``url``) from here, so a
metric is explained once.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse


@dataclass(frozen=True)
class Term:
    anchor: str
    name: str
    measures: str
    range: str
    computed: str

    @property
    def tip(self) -> str:
        """The header tooltip: what it measures and its range."""
        return f"{self.name}: {self.measures} ({self.range})"

    @property
    def url(self) -> str:
        return f"{reverse('glossary')}#{self.anchor}"


TERMS = (
    Term(
        "rank",
        "Rank",
        "a model's place among the complete runs of models on the release",
        "1 to the number of ranked runs, as a range",
        "A range where 95% intervals overlap: the best rank counts the runs whose interval lies wholly above, "
        "the worst those whose interval is not wholly below. Baselines and partial runs are not ranked.",
    ),
    Term(
        "pr",
        "PR@0.9 (Pass Rate at α = 0.9)",
        "the share of cases the agent solved",
        "0–100 %",
        "A case passes when SC > 0.9 where SC applies and every other applicable outcome metric "
        "(A, PIoU, RD, OC) equals 1; PR is the mean over cases. Process metrics do not count.",
    ),
    Term(
        "overall",
        "Overall PR (95% CI)",
        "the pass rate over all cases of the run, with its uncertainty",
        "0–100 %",
        "PR@0.9 pooled over every case and trial; the interval is a bootstrap over cases (2,000 "
        "resamples, each case with all its trials). Partial runs show no interval.",
    ),
    Term(
        "cell",
        "Cell (category × level)",
        "PR@0.9 on the cases of one task category at one level (L0 to L2), the paper's table 2",
        "0–100 %",
        "The pass rate over the cell's cases; “–” where the run has no case in the cell.",
    ),
    Term(
        "macro",
        "Cell mean (macro average)",
        "the pass rate with every cell weighted the same",
        "0–100 %",
        "The mean of the 11 cells' PR@0.9, so a large cell does not outweigh a small one.",
    ),
    Term(
        "pass-k",
        "pass^k",
        "how reliably the agent solves a case over k trials",
        "0–100 %",
        "The share of cases whose every one of their k trials passed; only for runs with several trials.",
    ),
    Term(
        "IG",
        "IG (Information Grounding)",
        "whether the agent observed the information the case requires",
        "0–1 (shown in %)",
        "Required evidence observed in successful tool results divided by all required evidence "
        "(places, their fields, notes, route legs): a recall (paper eq. 5, read as the text describes it).",
    ),
    Term(
        "TE",
        "TE (Tool Efficiency)",
        "how few tool calls the agent needed compared with the reference path",
        "0–1 (shown in %)",
        "min(1, reference calls / the trajectory's calls), submit_answer excluded and failed calls "
        "counted (paper eq. 6).",
    ),
    Term(
        "RP",
        "RP (Reasoning Purity)",
        "whether what the answer cites was actually fetched",
        "0–1 (shown in %)",
        "From the judges when configured; otherwise 1 − flagged / checked over the place ids, note ids "
        "and numbers in the answer that no earlier observation held.",
    ),
    Term(
        "A",
        "A (Attribute Accuracy)",
        "whether the answer meets the question's explicit requirements",
        "0 or 1",
        "1 when the value (Place Perception) or every chosen place's required attributes match the "
        "reference, else 0 (paper eq. 1).",
    ),
    Term(
        "PIoU",
        "PIoU (Place-set IoU)",
        "how well the chosen places match the reference places",
        "0–1",
        "|predicted ∩ reference| / |predicted ∪ reference| over place ids (paper eq. 2).",
    ),
    Term(
        "RD",
        "RD (Routing Deviation): RD_distance and RD_time",
        "how close the route's total distance (or time) is to the reference route's",
        "0–1",
        "PIoU × max(0, 1 − |v − v*| / v*), with v the total metres (RD_distance) or seconds (RD_time) (paper eq. 3).",
    ),
    Term(
        "OC",
        "OC (Order Consistency)",
        "whether the stops are visited in the reference order",
        "0–1",
        "PIoU × (1 − inverted pairs / all pairs) over the shared places in the submitted order (paper eq. 4).",
    ),
    Term(
        "SC",
        "SC (Semantic Constraint)",
        "whether the plan meets the question's constraints (opening hours, order, radius, implicit needs)",
        "0–1",
        "From the judge ensemble when configured, otherwise the share of the rule checks that pass.",
    ),
    Term(
        "tokens",
        "Tokens / case",
        "how many model tokens the agent used",
        "0 or more (a count)",
        "Input plus output tokens per trajectory, averaged over the run's cases; 0 for agents without a model.",
    ),
    Term(
        "cost",
        "Cost (USD)",
        "what the run's tokens cost at the model's list price",
        "0 or more",
        "The run's tokens priced with litellm's local cost map; “—” where the model's price is unknown.",
    ),
)
BY_ANCHOR = {term.anchor: term for term in TERMS}
# Table 3's metric names on the run page (judging's names) -> glossary entries.
METRIC_ANCHORS = {"RD_distance": "RD", "RD_time": "RD", "PR": "pr"}


def term_for(metric: str) -> Term:
    """The glossary entry of a metric name as the tables write it (``RD_time`` -> RD)."""
    return BY_ANCHOR[METRIC_ANCHORS.get(metric, metric)]


def glossary_page(request: HttpRequest) -> HttpResponse:
    return render(request, "web/glossary.html", {"terms": TERMS})


def metrics_doc(request: HttpRequest) -> HttpResponse:
    """docs/metrics.md of the running code, as plain text: the full definitions behind the glossary."""
    try:
        text = (settings.BASE_DIR / "docs" / "metrics.md").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise Http404("docs/metrics.md is not installed with this site") from None
    return HttpResponse(text, content_type="text/plain; charset=utf-8")
