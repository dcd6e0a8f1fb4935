"""The public site: leaderboard, run pages, trajectory replay, comparison, case browser and
model submission. Views here are thin: they parse input, call a selector or service, render."""
