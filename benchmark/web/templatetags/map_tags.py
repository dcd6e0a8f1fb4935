"""``{% map "id" callback="name" %}``: a Leaflet map as django-leaflet's ``leaflet_map`` makes it, without its
inline script.

django-leaflet's tag writes an inline ``<script>`` that starts the map; the site's Content-Security-Policy
(``script-src 'self'``, lifeplanner_site/middleware.py) runs none. This tag takes django-leaflet's own
options (the LEAFLET_CONFIG settings, tiles included) and writes them as a JSON block next to the map's
element; static/js/leaflet-map.js starts each map on the page's load event, as the inline script did, and
calls ``window[callback](map, options)``.
"""

from __future__ import annotations

import json

from django import template
from leaflet.templatetags.leaflet_tags import leaflet_map  # type: ignore[import-untyped]

register = template.Library()


@register.inclusion_tag("web/leaflet_map.html")
def map(name: str, callback: str = "") -> dict:  # noqa: A001 (the tag's name in templates)
    context = leaflet_map(name, fitextent=True, creatediv=True)
    options = json.loads(context["djoptions"])
    return {"name": name, "callback": callback, "options": options, "options_id": f"{name}-options"}
