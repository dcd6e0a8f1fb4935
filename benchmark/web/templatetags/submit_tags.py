"""Template tags of the submission part of the site (live progress of a run)."""

from django import template

from benchmark.runs.services import run_progress as progress_of

register = template.Library()


@register.simple_tag
def run_progress(run) -> dict:
    """The run's trajectory counts (``run_progress``), so the progress partial shows them without JS."""
    return progress_of(run=run)
