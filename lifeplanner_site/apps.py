"""The site's app configurations."""

from django.contrib.admin.apps import AdminConfig


class SiteAdminConfig(AdminConfig):
    """``django.contrib.admin`` with ``SiteAdmin`` (lifeplanner_site/admin_site.py) as ``admin.site``: curators
    open the admin by their group alone."""

    default_site = "lifeplanner_site.admin_site.SiteAdmin"
