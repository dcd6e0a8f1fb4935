"""Development tooling, kept out of the product: the benchmarks (``bench_*`` commands), the scale-out
driver, the worker profiler and the scripted OpenAI-compatible endpoint (``fake_endpoint``).

Only ``lifeplanner_site.dev_settings`` (what ``manage.py`` uses unless told otherwise, and what the tests
build on) installs it; ``lifeplanner_site.settings``, the image's settings, does not, and no product app
imports it (.importlinter). docs/benchmarks.md says how each benchmark is run and what it measured.
"""
