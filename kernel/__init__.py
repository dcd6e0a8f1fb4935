"""The shared kernel: what every app uses and no app owns (docs/architecture.md).

The registry base, input hygiene, text folding, the tool outcome kinds, opening hours and the
task vocabulary. It is the bottom row of .importlinter's layers: it imports no app, and nothing
but the standard library and opening-hours-py.
"""
