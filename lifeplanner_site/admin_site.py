"""The admin site: staff, and curators by their group alone, may open it.

Curators (the "Curators" group, i.e. the ``cases.curate_case`` permission) are let in without staff
status, so taking someone out of the group closes the admin to them at once, with nothing else to
undo. What each user may see and do inside is still their model permissions.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError

from benchmark.cases.permissions import is_curator


def may_open_admin(user) -> bool:
    """Staff, and members of the Curators group (staff status or not)."""
    return bool(user.is_active and (user.is_staff or is_curator(user)))


class AdminLoginForm(AdminAuthenticationForm):
    """The admin's sign-in: Django's, letting curators in as well as staff."""

    def confirm_login_allowed(self, user):
        AuthenticationForm.confirm_login_allowed(self, user)  # active users only
        if not may_open_admin(user):
            raise ValidationError(
                self.error_messages["invalid_login"],
                code="invalid_login",
                params={"username": self.username_field.verbose_name},
            )


class SiteAdmin(admin.AdminSite):
    login_form = AdminLoginForm
    site_header = "LifePlanner curation"
    site_title = "LifePlanner admin"
    index_title = "Cases, releases, runs and accounts"
    site_url = "/"  # "View site" leads to the leaderboard

    def has_permission(self, request) -> bool:
        return may_open_admin(request.user)
