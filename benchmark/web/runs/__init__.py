"""A run's pages: its report, its failed cases as files, its live progress and the owner's buttons."""
