"""City build pipeline: OSM extract -> places and roads, synthetic social corpus, PostGIS rows."""
