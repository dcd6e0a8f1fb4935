"""Spherical geometry helpers shared by the routing engine (pure functions, no state)."""

from __future__ import annotations

import math

import numpy as np

EARTH_RADIUS_M = 6371008.8  # mean Earth radius (IUGG), used for every length in routing

_COMPASS = ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest")


def haversine_m(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Great-circle distance in metres between two (lon, lat) points in degrees."""
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dphi = phi2 - phi1
    dlmb = math.radians(lon2 - lon1)
    a = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlmb / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(a)))


def haversine_m_array(lon1, lat1, lon2, lat2) -> np.ndarray:
    """Vectorised :func:`haversine_m` over numpy arrays (same formula, same results)."""
    phi1, phi2 = np.radians(lat1), np.radians(lat2)
    dphi = phi2 - phi1
    dlmb = np.radians(np.asarray(lon2) - np.asarray(lon1))
    a = np.sin(dphi / 2) ** 2 + np.cos(phi1) * np.cos(phi2) * np.sin(dlmb / 2) ** 2
    return 2 * EARTH_RADIUS_M * np.arcsin(np.minimum(1.0, np.sqrt(a)))


def bearing_deg(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Initial bearing from point 1 to point 2, degrees clockwise from north in [0, 360)."""
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dlmb = math.radians(lon2 - lon1)
    y = math.sin(dlmb) * math.cos(phi2)
    x = math.cos(phi1) * math.sin(phi2) - math.sin(phi1) * math.cos(phi2) * math.cos(dlmb)
    return math.degrees(math.atan2(y, x)) % 360.0


def compass_word(bearing: float) -> str:
    """Eight-point compass word for a bearing ("north", "southeast", ...)."""
    return _COMPASS[int(((bearing % 360.0) + 22.5) // 45.0) % 8]


class LocalProjection:
    """Equirectangular projection to metres around a fixed origin, for nearest-node search."""

    def __init__(self, lon0: float, lat0: float) -> None:
        self.lon0 = lon0
        self.lat0 = lat0
        self._kx = EARTH_RADIUS_M * math.radians(1.0) * math.cos(math.radians(lat0))
        self._ky = EARTH_RADIUS_M * math.radians(1.0)

    def project(self, lons, lats) -> np.ndarray:
        """Return an (n, 2) array of x/y metres for the given degree arrays."""
        x = (np.asarray(lons, dtype=float) - self.lon0) * self._kx
        y = (np.asarray(lats, dtype=float) - self.lat0) * self._ky
        return np.column_stack([x, y])
