"""Indexes that bound the cost of place_search and route-buffer nearby_search at any city size.

- place_location_geom: a planar GiST index on the places' points as geometry (degrees), for the
  cheap prefilter of a route buffer before the exact spheroid test.
- place_rating_order: place_search's order for an empty query_name (rating highest first, unrated
  last, then name and place_id), so the first page is read from the index with LIMIT.
- place_city_type: the places of the few place types that match a place_types filter.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("environment", "0001_initial")]
    policy_exception = (
        "CREATE INDEX IF NOT EXISTS only adds indexes (no column, row or table is changed or dropped), and its "
        "reverse drops just those indexes: the code of every earlier release runs on either side of it"
    )

    operations = [
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS place_location_geom ON environment_place USING gist ((location::geometry))",
            "DROP INDEX IF EXISTS place_location_geom",
        ),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS place_rating_order ON environment_place "
            "(city_id, rating DESC NULLS LAST, name, place_id)",
            "DROP INDEX IF EXISTS place_rating_order",
        ),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS place_city_type ON environment_place (city_id, place_type)",
            "DROP INDEX IF EXISTS place_city_type",
        ),
    ]
