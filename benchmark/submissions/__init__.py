"""Model submissions: a user's endpoint, a smoke test on 3 cases, then the full run.

``services`` holds the writes (``submission_create``, ``submission_smoke_finished``) and the
selectors the pages use; ``smoke`` reads a smoke run's report.
"""
