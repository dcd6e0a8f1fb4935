"""Read-side queries for the site's pages."""

from __future__ import annotations

from environment.selectors import city_rows


def city_summaries() -> list[dict]:
    """Every built city with its build report (its version shortened to 12 characters), newest first."""
    return [
        {
            "name": c.name,
            "version": c.version[:12],
            "seed": c.seed,
            "scale": c.scale,
            "built_at": c.built_at,
            "report": c.report,
        }
        for c in city_rows()
    ]
