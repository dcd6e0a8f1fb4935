"""What runs announce to the apps above them (which connect in their AppConfig.ready)."""

from django.dispatch import Signal

# Sent with ``run`` (an EvaluationRun) once a run completed and its aggregates are stored.
run_finished = Signal()
