"""PostGIS, its connection pool checking a connection with ``db_pool.check_pooled_connection`` (settings.py uses
this backend when DB_POOL_SIZE and DB_CONN_HEALTH_CHECKS are both on).

Django gives psycopg_pool a check of its own choosing (an empty query, a round trip at every checkout) and
refuses a ``check`` in the pool's options; this backend puts the cheaper check in its place.
"""

from django.contrib.gis.db.backends.postgis.base import DatabaseWrapper as PostGISDatabaseWrapper
from psycopg_pool import ConnectionPool

from lifeplanner_site.db_pool import check_pooled_connection


class DatabaseWrapper(PostGISDatabaseWrapper):
    @property
    def pool(self):
        pool = super().pool  # type: ignore[misc]  # Django's stubs lack the pool (Django 5.1)
        # psycopg_pool keeps the check it was made with in ``_check`` (tests/site/test_db_pool.py fails if it stops).
        if pool is not None and pool._check is ConnectionPool.check_connection:
            pool._check = check_pooled_connection
        return pool
