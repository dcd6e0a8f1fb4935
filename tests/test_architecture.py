"""The architecture holds (docs/architecture.md): the apps' import contracts, no import cycles, and
no SQL outside ``environment`` that reads the world's tables behind ``environment.selectors``.

The first two read the import graph grimp builds from the source (every ``import`` and ``from``
form, at module level or inside a function), so a lazy import cannot hide a dependency.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import grimp
from django.apps import apps

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("kernel", "environment", "judging", "benchmark", "lifeplanner_site", "devtools")


def test_the_import_contracts_are_kept():
    lint_imports = Path(sys.executable).parent / "lint-imports"  # import-linter's command, in the venv
    done = subprocess.run([str(lint_imports), "--no-cache"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def strongly_connected(graph) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module (iterative: the graph is deep)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            module, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[module] = min(low[module], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_imports_itself_back_through_others():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    assert len(graph.modules) > 250
    assert strongly_connected(graph) == []


def folder_graph(graph) -> grimp.ImportGraph:
    """The folders (packages) of ``graph``, one importing another when any module in the first imports one in
    the second. A module's folder is its package; a package's ``__init__`` is the package itself."""
    folders = grimp.ImportGraph()

    def folder(module: str) -> str:
        return module if (REPO / module.replace(".", "/")).is_dir() else module.rpartition(".")[0]

    for module in graph.modules:
        folders.add_module(folder(module))
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if folder(module) != folder(imported):
                folders.add_import(importer=folder(module), imported=folder(imported))
    return folders


def test_no_folder_imports_itself_back_through_others():
    """Inside every app the folders form layers: a folder whose modules import a subfolder's is never imported
    back by it (a root that holds both shared modules and an orchestrator does), every import form counted."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    folders = folder_graph(graph)
    assert {"kernel", "benchmark.agents", "benchmark.agents.catalog", "judging.scoring"} <= folders.modules
    assert strongly_connected(folders) == []


def test_the_folder_graph_finds_a_parent_and_child_that_import_each_other():
    graph = grimp.ImportGraph()
    for module in ("tests", "tests.factories", "tests.run", "tests.benchmark", "tests.benchmark.step"):
        graph.add_module(module)
    # (folders that exist, as the folder graph asks the disk which modules are packages)
    graph.add_import(importer="tests.run", imported="tests.benchmark.step")  # a root orchestrator uses a subfolder
    graph.add_import(importer="tests.benchmark.step", imported="tests.factories")  # which uses a module of the root
    assert strongly_connected(folder_graph(graph)) == [["tests", "tests.benchmark"]]


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for module in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(module)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.z")
    graph.add_import(importer="a.z", imported="a.x")
    assert strongly_connected(graph) == [["a.x", "a.y", "a.z"]]


def environment_tables() -> set[str]:
    """The database tables of the environment app's models (many-to-many tables included)."""
    return {model._meta.db_table for model in apps.get_app_config("environment").get_models(include_auto_created=True)}


def table_mentions(source: str, tables: set[str]) -> list[str]:
    """The names of ``tables`` that ``source`` spells out as whole words (as SQL names them)."""
    pattern = r"\b(" + "|".join(map(re.escape, sorted(tables, key=len, reverse=True))) + r")\b"
    return re.findall(pattern, source)


def test_no_sql_outside_environment_names_an_environment_table():
    """Raw SQL cannot go around the contract that only environment imports environment.models."""
    tables = environment_tables()
    assert {"environment_city", "environment_place", "environment_roadsegment", "environment_socialfact"} <= tables
    found = {}
    for package in ("benchmark", "judging", "lifeplanner_site", "devtools"):
        for path in sorted((REPO / package).rglob("*.py")):
            if "migrations" in path.relative_to(REPO).parts:
                continue  # a migration's history may name the tables it made; no code imports it
            if mentions := table_mentions(path.read_text(encoding="utf-8"), tables):
                found[str(path.relative_to(REPO))] = sorted(set(mentions))
    assert found == {}, "read the world through environment.selectors instead"


def test_the_table_finder_finds_a_table_in_sql_and_nothing_in_other_names():
    tables = {"environment_note", "environment_note_mentioned_places", "environment_place"}
    sql = 'cursor.execute("SELECT n.id FROM environment_note n JOIN environment_note_mentioned_places m ON")'
    assert table_mentions(sql, tables) == ["environment_note", "environment_note_mentioned_places"]
    assert table_mentions("proxy = environment_proxy(scheme, host)  # environment_places", tables) == []


def manage_commands(settings_module: str) -> set[str]:
    """The command names ``manage.py help --commands`` lists under ``settings_module``."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": settings_module}
    done = subprocess.run(
        [sys.executable, "manage.py", "help", "--commands"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return set(done.stdout.split())


TOOLING = {"bench_compare", "bench_evaluation", "bench_model_client", "bench_pages", "bench_scaleout", "bench_tools"}


def test_the_tooling_is_a_development_app_the_production_settings_leave_out():
    """The benchmarks, the profiler, the scale-out driver and the scripted endpoint live in devtools: the
    commands keep their names under the development settings (manage.py's default) and are not there under
    the image's settings; no product package holds a module of that kind."""
    assert TOOLING | {"fake_endpoint"} <= manage_commands("lifeplanner_site.dev_settings")
    production = manage_commands("lifeplanner_site.settings")
    assert "evaluate" in production
    assert production.isdisjoint(TOOLING | {"fake_endpoint"})
    left = [
        str(path.relative_to(REPO))
        for package in ("kernel", "environment", "judging", "benchmark", "lifeplanner_site")
        for path in (REPO / package).rglob("*.py")
        if re.search(r"bench|profiling|scaleout|fake_endpoint", path.stem)
    ]
    assert left == []


WEB_PARTS = {"board", "runs", "replay", "cases", "submit"}


def test_each_part_of_the_site_routes_its_own_views():
    """benchmark/web is a package per part of the site, along its URL seams: each part's urls.py routes views of
    that part only (or Django's own sign-in views), and the package's root keeps no views or routes of a part."""
    from django.urls import URLResolver

    from benchmark.web import urls

    parts = set()
    for entry in urls.urlpatterns:
        if not isinstance(entry, URLResolver):
            assert entry.callback.__module__ in ("benchmark.web.about", "benchmark.web.glossary"), entry
            continue
        package = entry.urlconf_module.__name__.removesuffix(".urls")
        parts.add(package.removeprefix("benchmark.web."))
        for route in entry.url_patterns:
            module = route.callback.__module__
            assert module.startswith(package + ".") or module.startswith("django."), (route.name, module, package)
    assert parts == WEB_PARTS
    root = REPO / "benchmark" / "web"
    flat = sorted(p.name for p in root.glob("*.py") if p.name.startswith(("views", "urls_", "replay")))
    assert flat == [], flat
