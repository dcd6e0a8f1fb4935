"""The leaderboard and who sees what: its rows and sections (``leaderboard``), finding runs and the downloads'
document (``search``), the rules of visibility shared by the pages and the API (``visibility``), the
owner's and staff's actions on a run (``moderation``) and a model's card (``model_cards``)."""
