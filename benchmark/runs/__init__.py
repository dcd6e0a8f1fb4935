"""Runs: agents evaluated on releases, one (case, trial) per Celery task, scored and aggregated."""
