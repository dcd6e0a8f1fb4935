"""The world: a built city, its places, road network and social-media corpus.

Tools read these tables and never write them. A city is replaced as a whole by
``build_city`` (see ``environment.build``), so every row carries its city.
"""

from __future__ import annotations

from django.contrib.gis.db import models
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField


class City(models.Model):
    """One built city. ``version`` is a content hash of inputs, seed and build code."""

    name = models.SlugField(unique=True)
    version = models.CharField(max_length=64)
    seed = models.IntegerField()
    scale = models.PositiveIntegerField(default=1)
    source = models.CharField(max_length=500, help_text="Path or name of the OSM extract.")
    bbox = models.PolygonField(srid=4326, null=True)
    built_at = models.DateTimeField(auto_now=True)
    report = models.JSONField(default=dict, help_text="Counts and timings of the build.")

    class Meta:
        verbose_name_plural = "cities"

    def __str__(self) -> str:
        return f"{self.name} ({self.version[:12]})"


class Place(models.Model):
    """A named point of interest (table 9 of the paper)."""

    city = models.ForeignKey(City, on_delete=models.CASCADE, related_name="places")
    place_id = models.CharField(max_length=40, help_text="Stable id from the OSM type and id, e.g. N2395731.")
    osm_type = models.CharField(max_length=8)
    osm_id = models.BigIntegerField()
    name = models.CharField(max_length=300)
    place_type = models.CharField(max_length=120, help_text="Two-level taxonomy 'Top|Sub'.")
    top_type = models.CharField(max_length=60)
    address = models.CharField(max_length=300, blank=True)
    opentime_week = models.CharField(max_length=500, blank=True, help_text="OSM opening_hours text.")
    opening_hours_valid = models.BooleanField(default=False)
    rating = models.FloatField(null=True)
    cost = models.IntegerField(null=True, help_text="Average spend per person (EUR).")
    rating_cost_synthetic = models.BooleanField(default=True)
    tag = models.TextField(blank=True, help_text="Static attributes: OSM-derived plus social-derived tags.")
    alias = models.CharField(max_length=500, blank=True)
    long_mem = models.TextField(blank=True, help_text="Hidden: long-term social impressions.")
    short_mem = models.TextField(blank=True, help_text="Hidden: short-term social states.")
    name_text = models.TextField(blank=True, help_text="Folded name, alias and place_type (query_name filter).")
    tag_text = models.TextField(blank=True, help_text="Folded name, alias and tag (geo_tag filter).")
    mem_text = models.TextField(blank=True, help_text="Folded long_mem and short_mem (social_mem filter).")
    osm_tags = models.JSONField(default=dict)
    location = models.PointField(srid=4326, geography=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["city", "place_id"], name="place_unique_per_city")]
        indexes = [
            models.Index(fields=["city", "top_type"]),
            GinIndex(name="place_name_text_trgm", fields=["name_text"], opclasses=["gin_trgm_ops"]),
            GinIndex(name="place_tag_text_trgm", fields=["tag_text"], opclasses=["gin_trgm_ops"]),
            models.Index(fields=["city", "rating"]),
        ]

    def __str__(self) -> str:
        return f"{self.name} [{self.place_id}]"


class RoadSegment(models.Model):
    """One OSM highway way with its per-mode access (the routing graph is built from these)."""

    city = models.ForeignKey(City, on_delete=models.CASCADE, related_name="roads")
    gid = models.BigIntegerField(help_text="The way id agents pass in avoid_way_ids.")
    name = models.CharField(max_length=300, blank=True)
    highway = models.CharField(max_length=40)
    node_ids = ArrayField(models.BigIntegerField())
    geometry = models.LineStringField(srid=4326)
    length_m = models.FloatField()
    walk = models.BooleanField()
    cycle_forward = models.BooleanField()
    cycle_backward = models.BooleanField()
    drive_forward = models.BooleanField()
    drive_backward = models.BooleanField()
    drive_speed_mps = models.FloatField()
    tunnel = models.BooleanField(default=False, help_text="Underground; places never snap onto it.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["city", "gid"], name="road_unique_per_city")]

    def __str__(self) -> str:
        return f"{self.name or self.highway} [{self.gid}]"


class Note(models.Model):
    """A social-media post (table 10). ``place`` is the hidden place it was written about."""

    city = models.ForeignKey(City, on_delete=models.CASCADE, related_name="notes")
    note_id = models.CharField(max_length=40)
    place = models.ForeignKey(Place, on_delete=models.CASCADE, null=True, related_name="notes")
    mentioned_places = models.ManyToManyField(Place, related_name="mentioning_notes", blank=True)
    kind = models.CharField(
        max_length=20, help_text="Hidden noise label: about, multi, chatter, duplicate, outdated, promo, spam."
    )
    title = models.CharField(max_length=300)
    desc = models.TextField()
    time = models.DateTimeField()
    liked_count = models.IntegerField()
    collected_count = models.IntegerField()
    comment_count = models.IntegerField()
    share_count = models.IntegerField()
    tag_list = models.CharField(max_length=500, blank=True)
    search_vector = SearchVectorField(null=True, help_text="Title, text, tags and comments (english config).")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["city", "note_id"], name="note_unique_per_city")]
        indexes = [GinIndex(fields=["search_vector"], name="note_search_vector_gin")]

    def __str__(self) -> str:
        return f"{self.title} [{self.note_id}]"


class Comment(models.Model):
    note = models.ForeignKey(Note, on_delete=models.CASCADE, related_name="comments")
    comment_id = models.CharField(max_length=40)
    time = models.DateTimeField()
    content = models.TextField()
    like_count = models.IntegerField()

    class Meta:
        indexes = [models.Index(fields=["note", "time"])]


class SocialFact(models.Model):
    """A hidden fact about a place that OSM does not hold, with the notes that support it."""

    STATIC, LONG_TERM, SHORT_TERM = "static", "long_term", "short_term"
    KINDS = [(STATIC, "static tag"), (LONG_TERM, "long-term impression"), (SHORT_TERM, "short-term state")]

    place = models.ForeignKey(Place, on_delete=models.CASCADE, related_name="facts")
    kind = models.CharField(max_length=12, choices=KINDS)
    key = models.CharField(max_length=80, help_text="Vocabulary key, e.g. corgi_cafe.")
    label = models.CharField(max_length=200, help_text="Distilled text, e.g. 'Pets: Corgi cafe'.")
    valid_from = models.DateField(null=True)
    valid_until = models.DateField(null=True)
    note_ids = ArrayField(models.CharField(max_length=40), help_text="Supporting note ids.")

    class Meta:
        indexes = [models.Index(fields=["key"])]


class EvidenceLabel(models.Model):
    """Hidden: what one note (``comment`` null) or comment says about one fact at one place.

    The evidence rule (``environment.evidence``) reads these, with the item's time, to decide whether a
    fact holds; agents never see them.
    """

    STANCES = [(s, s) for s in ("supports", "negates", "ended", "credits", "asks", "hearsay", "promo", "spam")]

    note = models.ForeignKey(Note, on_delete=models.CASCADE, related_name="labels")
    comment = models.ForeignKey(Comment, on_delete=models.CASCADE, null=True, related_name="labels")
    place = models.ForeignKey(Place, on_delete=models.CASCADE, related_name="evidence")
    kind = models.CharField(max_length=12, choices=SocialFact.KINDS)
    key = models.CharField(max_length=80)
    label = models.CharField(max_length=200)
    stance = models.CharField(max_length=10, choices=STANCES)
    credited_place = models.ForeignKey(Place, on_delete=models.CASCADE, null=True, related_name="credited_evidence")
    valid_from = models.DateField(null=True)
    valid_until = models.DateField(null=True)
    text = models.TextField(help_text="The sentence that says it.")

    class Meta:
        indexes = [models.Index(fields=["place", "key"])]


class ToolCallLog(models.Model):
    """A tool call made through the gateway by a caller that asked for it to be kept (MCP sessions)."""

    city_version = models.CharField(max_length=64)
    session = models.CharField(max_length=80, blank=True)
    toolset = models.CharField(max_length=10)
    tool = models.CharField(max_length=40)
    arguments = models.JSONField()
    result = models.JSONField(null=True)
    error = models.JSONField(null=True)
    error_kind = models.CharField(max_length=20, blank=True)
    latency_ms = models.FloatField()
    tool_version = models.CharField(max_length=20)
    created_at = models.DateTimeField(auto_now_add=True)
