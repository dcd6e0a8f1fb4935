"""Who curates: the ``cases.curate_case`` permission (held by the "Curators" group and superusers)."""

from __future__ import annotations

CURATE = "cases.curate_case"


def is_curator(user) -> bool:
    """Whether ``user`` may validate, reject, re-verify and edit cases and see hidden releases' answers."""
    return bool(user and user.is_authenticated and user.has_perm(CURATE))
