"""Template tags of the site's pages."""
