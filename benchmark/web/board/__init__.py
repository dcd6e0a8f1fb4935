"""The board's pages: the leaderboard (home) and its downloads, model cards, a release's hardest cases and cost."""
