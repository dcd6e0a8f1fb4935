"""The city's streets as the maps' own base layer: content, classes, caching per city version, HTTP."""

from __future__ import annotations

import gzip
import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from environment.models import City, RoadSegment

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def streets(client, name: str = "gridtown", **headers):
    return client.get(reverse("city-streets", args=[name]), **headers)


def test_streets_are_the_citys_road_segments_grouped_by_class(client, grid_city):
    response = streets(client)
    assert response.status_code == 200 and response["Content-Type"] == "application/geo+json"
    data = json.loads(response.content)
    by_class = {f["properties"]["class"]: f["geometry"] for f in data["features"]}
    assert set(by_class) == {"major", "street"}  # Column 4 Avenue is primary; the rest residential
    assert len(by_class["major"]["coordinates"]) == 1 and len(by_class["street"]["coordinates"]) == 9
    assert by_class["major"]["coordinates"][0][0] == [24.948, 60.17]  # the grid's first node of column 4
    assert len(by_class["street"]["coordinates"]) + 1 == RoadSegment.objects.filter(city=grid_city).count()


def test_streets_are_cached_per_city_version(client, grid_city, django_assert_num_queries):
    first = streets(client).content
    with django_assert_num_queries(1):  # only the city's version: the document comes from the cache
        assert streets(client).content == first
    RoadSegment.objects.filter(city=grid_city, gid=204).delete()  # rebuilt without Column 4 Avenue
    City.objects.filter(pk=grid_city.pk).update(version="grid-1-rebuilt")
    classes = [f["properties"]["class"] for f in json.loads(streets(client).content)["features"]]
    assert classes == ["street"]


def test_streets_answer_with_an_etag_and_are_compressed(client, grid_city):
    response = streets(client, HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip" and response["Cache-Control"] == "public, max-age=3600"
    assert json.loads(gzip.decompress(response.content))["type"] == "FeatureCollection"
    for etag in (response["ETag"], f'"streets-{grid_city.version}"'):
        again = streets(client, HTTP_IF_NONE_MATCH=etag)
        assert again.status_code == 304 and again.content == b""
    assert streets(client, HTTP_IF_NONE_MATCH='"streets-older"').status_code == 200
    assert response["ETag"] == f'W/"streets-{grid_city.version}"'  # weak: the bytes depend on compression


def test_an_unknown_city_has_no_streets(client, grid_city):
    response = streets(client, "atlantis")
    assert response.status_code == 404 and response.json() == {"error": "no built city named 'atlantis'"}
