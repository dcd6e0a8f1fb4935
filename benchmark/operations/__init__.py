"""Operations: backup and restore of results, the migration policy, re-scoring runs, retention.

Modules: ``backup`` / ``restore`` (pg_dump / pg_restore of the results tables),
``migration_policy`` (migrations safe while workers run), ``rescore`` (``run_rescore``),
``retention`` (``model_calls_prune``). See docs/operations.md.
"""
