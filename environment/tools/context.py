"""What a tool call runs against: the city's rows and its road network (cached per version)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property

from django.conf import settings

from environment.models import City

_NETWORKS: OrderedDict[str, object] = OrderedDict()  # city version -> RoadNetwork, least recent first
_NETWORK_LOCK = threading.Lock()
MAX_CACHED_NETWORKS = 3


class CityNotBuilt(LookupError):
    pass


@dataclass
class ToolContext:
    city_id: int
    city_name: str
    city_version: str

    @cached_property
    def network(self):
        """The routing network of this city version, built once per process."""
        with _NETWORK_LOCK:
            network = _NETWORKS.get(self.city_version)
            if network is None:
                network = _build_network(self.city_id)
                _NETWORKS[self.city_version] = network
                while len(_NETWORKS) > MAX_CACHED_NETWORKS:
                    _NETWORKS.popitem(last=False)
            _NETWORKS.move_to_end(self.city_version)
            return network


def city_context(name: str | None = None) -> ToolContext:
    """The context for city ``name`` (default: settings.LIFEPLANNER_CITY)."""
    name = name or settings.LIFEPLANNER_CITY
    row = City.objects.filter(name=name).values_list("id", "version").first()
    if row is None:
        raise CityNotBuilt(f"city {name!r} is not built; run: python manage.py build_city")
    return ToolContext(city_id=row[0], city_name=name, city_version=row[1])


def _build_network(city_id: int):
    from environment.models import Place, RoadSegment
    from environment.records import RoadRecord
    from environment.routing import RoadNetwork

    roads = [
        RoadRecord(
            gid=r.gid,
            name=r.name,
            highway=r.highway,
            node_ids=tuple(r.node_ids),
            coords=tuple(r.geometry.coords),  # type: ignore[arg-type]  # stubs: LineString.coords is a 1-tuple
            walk=r.walk,
            cycle_forward=r.cycle_forward,
            cycle_backward=r.cycle_backward,
            drive_forward=r.drive_forward,
            drive_backward=r.drive_backward,
            drive_speed_mps=r.drive_speed_mps,
            tunnel=r.tunnel,
        )
        for r in RoadSegment.objects.filter(city_id=city_id).order_by("gid")
    ]
    places = [
        (pid, loc.x, loc.y)
        for pid, loc in Place.objects.filter(city_id=city_id).order_by("place_id").values_list("place_id", "location")
    ]
    return RoadNetwork.build(roads, places)
