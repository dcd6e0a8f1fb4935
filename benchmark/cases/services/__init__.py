"""Writes over cases and releases: curation, freezing, import and export.

Every change to a case goes through these functions so that its audit history
(``CaseEvent``) records who changed what, when and why.
"""

from .cases import (
    CaseVerificationError,
    case_create,
    case_duplicate_as_draft,
    case_reject,
    case_reverify,
    case_update,
    case_validate,
)
from .releases import release_check, release_exposure, release_exposure_warning, release_freeze
from .transfer import CaseImportError, ExportResult, HiddenAnswersRefused, ImportResult, cases_export, cases_import

__all__ = [
    "CaseImportError",
    "CaseVerificationError",
    "ExportResult",
    "HiddenAnswersRefused",
    "ImportResult",
    "case_create",
    "case_duplicate_as_draft",
    "case_reject",
    "case_reverify",
    "case_update",
    "case_validate",
    "cases_export",
    "cases_import",
    "release_check",
    "release_exposure",
    "release_exposure_warning",
    "release_freeze",
]
