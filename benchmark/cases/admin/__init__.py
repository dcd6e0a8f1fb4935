"""Curation in the admin: review cases on a map, validate, reject, re-verify, duplicate; view releases.

Every action calls one service in ``benchmark.cases.services``; edits go through
``case_update`` so the audit history records them. Curating needs the
``cases.curate_case`` permission (the "Curators" group); other staff can at most view,
and never see the cases or snapshots of a hidden release.
"""

from .cases import CaseAdmin
from .releases import ReleaseAdmin

__all__ = ["CaseAdmin", "ReleaseAdmin"]
