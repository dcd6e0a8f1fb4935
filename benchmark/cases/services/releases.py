"""Freezing releases: named, hashed snapshots of validated cases from one city version.

A case frozen in both a public and a hidden release has its answer public: ``release_exposure``
names such cases so that whoever freezes the second release is warned."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction

from benchmark.cases.models import Case, Release, ReleaseCase

from ..document import canonical_json
from ..selectors import case_document


def release_check(*, name: str, split: str, cases: Iterable[Case], audit: bool = True) -> list[Case]:
    """Check that ``cases`` can be frozen as release ``name``; return them ordered by case_id.

    ``audit=False`` skips the independent verifier; only tests that freeze hand-made fixture
    documents (not data-engine cases) use it.

    Raises:
        ValidationError: the name is not a slug or already used, the split is unknown, there
            are no cases, some are not validated, they come from several city versions, or a
            case fails the independent verifier.
    """
    validate_slug(name)
    if Release.objects.filter(name=name).exists():
        raise ValidationError(f"release name {name!r} is already used; release names are never reused")
    if split not in dict(Release.SPLITS):
        raise ValidationError(f"unknown split {split!r}; use one of {', '.join(dict(Release.SPLITS))}")
    ordered = sorted(cases, key=lambda c: c.case_id)
    if not ordered:
        raise ValidationError("a release needs at least one case")
    unvalidated = [c.case_id for c in ordered if c.status != Case.VALIDATED]
    if unvalidated:
        raise ValidationError(f"only validated cases can be frozen; not validated: {', '.join(unvalidated)}")
    versions = sorted({(c.city_name, c.city_version) for c in ordered})
    if len(versions) > 1:
        listed = ", ".join(f"{n}@{v}" for n, v in versions)
        raise ValidationError(f"a release holds cases of one city version; these cases span {listed}")
    refused = release_audit(cases=ordered) if audit else []
    if refused:
        shown = "; ".join(f"{case_id}: {' / '.join(failures)}" for case_id, failures in refused[:10])
        more = f" (and {len(refused) - 10} more)" if len(refused) > 10 else ""
        raise ValidationError(f"{len(refused)} case(s) fail the independent verifier: {shown}{more}")
    return ordered


def release_audit(*, cases: Iterable[Case]) -> list[tuple[str, list[str]]]:
    """The independent verifier over every case about to be frozen: (case_id, failures) of those that fail.

    Validation already ran it, but a release is where a gold becomes a score, so it runs again at
    freezing time against the city as it is now."""
    from ..audit import audit_case

    refused = []
    for case in cases:
        failures = audit_case(case_document(case))
        if failures:
            refused.append((case.case_id, failures))
    return refused


def release_freeze(
    *, name: str, split: str, cases: Iterable[Case], actor=None, description: str = "", audit: bool = True
) -> Release:
    """Freeze ``cases`` as a new release.

    Each case's document is copied into the release (position = order by case_id), and the
    release's content hash is the sha256 of the canonical JSON of that ordered list. Later
    edits of a case do not change the release.

    Raises:
        ValidationError: see ``release_check``.
    """
    ordered = release_check(name=name, split=split, cases=cases, audit=audit)
    snapshots = [case_document(c).model_dump(mode="json") for c in ordered]
    return release_store(
        name=name, split=split, entries=list(zip(ordered, snapshots)), actor=actor, description=description
    )


def release_store(
    *, name: str, split: str, entries: list[tuple[Case, dict]], actor=None, description: str = ""
) -> Release:
    """Write a checked release from ``(case, snapshot)`` pairs already in case_id order (internal)."""
    first = entries[0][0]
    with transaction.atomic():
        release = Release.objects.create(
            name=name,
            split=split,
            content_hash=release_content_hash([s for _c, s in entries]),
            city_name=first.city_name,
            city_version=first.city_version,
            description=description,
            created_by=actor,
        )
        ReleaseCase.objects.bulk_create(
            ReleaseCase(release=release, case=case, position=position, snapshot=snapshot)
            for position, (case, snapshot) in enumerate(entries)
        )
    return release


def release_content_hash(snapshots: list[dict]) -> str:
    """sha256 of the canonical JSON of the ordered snapshots: equal content, equal hash."""
    return hashlib.sha256(canonical_json(snapshots).encode()).hexdigest()


def release_exposure(*, release: Release) -> dict[str, list[str]]:
    """The cases of ``release`` that are also in a release of the other split: {case_id: [release names]}.

    For a hidden release these cases are already public, so their answers are not hidden; for a
    public release they reveal the answers of the hidden releases named.
    """
    other = Release.PUBLIC if release.split == Release.HIDDEN else Release.HIDDEN
    rows = (
        ReleaseCase.objects.filter(case__in=release.entries.values("case"), release__split=other)
        .order_by("case__case_id", "release__name")
        .values_list("case__case_id", "release__name")
    )
    exposed: dict[str, list[str]] = {}
    for case_id, name in rows:
        exposed.setdefault(case_id, []).append(name)
    return exposed


def release_exposure_warning(*, release: Release) -> str:
    """A warning for whoever froze ``release`` naming its cases shared with the other split; '' when none."""
    exposed = release_exposure(release=release)
    if not exposed:
        return ""
    listed = "; ".join(f"{case_id} (in {', '.join(names)})" for case_id, names in list(exposed.items())[:20])
    more = f"; and {len(exposed) - 20} more" if len(exposed) > 20 else ""
    if release.split == Release.HIDDEN:
        return (
            f"warning: {len(exposed)} case(s) of hidden release {release.name} are already in a public release, "
            f"so their answers are not hidden: {listed}{more}"
        )
    return (
        f"warning: {len(exposed)} case(s) of public release {release.name} are also in a hidden release, whose "
        f"answers they now make public: {listed}{more}"
    )
