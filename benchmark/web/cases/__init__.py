"""The case browser: a release's cases, a case page with its map and results, and the note reader."""
