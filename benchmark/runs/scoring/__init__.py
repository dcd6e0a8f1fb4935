"""Scoring cases: the judging metrics run against the city (world adapter, judge cache, judges and their
model client)."""
