"""The public site, a package per part along its URL seams: board/ (leaderboard, model cards, a release's matrix and
cost), runs/ (a run's page, its files, progress and buttons), replay/ (a trajectory's replay, run comparison, the
streets), cases/ (case browser, note reader) and submit/ (model submission, token, one's endpoints); what they share
at the root. Views here are thin: they parse input, call a selector or service, render."""
