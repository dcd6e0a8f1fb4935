"""Evaluation: runs of agents and model endpoints on releases, on Celery workers."""
