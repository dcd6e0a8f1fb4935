"""Who may call what on the REST API. What a reader may *see* (hidden answers, smoke-test runs,
endpoint details) is decided by ``benchmark.board.visibility``, the same rules as the pages."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission


class ReadOnly(BasePermission):
    """Anyone may read; nobody may write (releases, cases, trajectories, the leaderboard)."""

    message = "this resource is read-only"

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS


class ReadOrSubmit(BasePermission):
    """Anyone may read runs; submitting one (POST) needs an active, signed-in user (token or session)."""

    message = "sign in (Authorization: Token <key>, or a session) to submit a model"

    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        user = request.user
        return bool(user and user.is_authenticated and user.is_active)
