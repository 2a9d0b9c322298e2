"""The package's seams, read from its imports with ``ast`` (nothing is imported).

* The tree is the map: one package per layer, the same as the README's Layout table; only
  ``__init__``, ``__main__``, ``api`` and ``errors`` at the top.
* No import circle, at load or hidden in a function (``if TYPE_CHECKING`` aside).  Importing
  a module of another package runs that package's ``__init__`` first, so it counts too.
* No module imports an underscore name from another phasedsl module: a leading underscore
  says no one outside its file depends on it.
* From outside a package only its face is used: the names of a layer's ``FACE``; the
  solver's and the hits' ``__init__`` names.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "phasedsl"



def _modules() -> dict[str, Path]:
    mods = {}
    for f in sorted(PACKAGE.rglob("*.py")):
        parts = list(f.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = f
    return mods


MODULES = _modules()


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _imports(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import of a module, and whether it runs when the module loads."""
    def walk(node: ast.AST, loading: bool) -> Iterator:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, loading
            elif (isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
                  or _is_type_checking(child)):
                yield from walk(child, False)
            else:
                yield from walk(child, loading)
    yield from walk(tree, True)


def _resolve(importer: str, level: int, module: str | None, modules: dict[str, Path]) -> str:
    if not level:
        return module or ""
    base = importer.split(".")
    if modules[importer].name != "__init__.py":
        base.pop()  # a module's package
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _edges(modules: dict[str, Path]) -> tuple[list[tuple[str, str, str, bool]],
                                              list[tuple[str, str, str]]]:
    """(importer, imported module, name, at load) per imported name; (importer, module,
    underscore name) per underscore name taken from another phasedsl module."""
    edges, under = [], []
    for mod, path in modules.items():
        for node, loading in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] == "phasedsl":
                        edges.append((mod, a.name, "", loading))
                continue
            source = _resolve(mod, node.level, node.module, modules)
            if source.split(".")[0] != "phasedsl":
                continue
            for a in node.names:
                full = f"{source}.{a.name}"
                target = full if full in modules else source
                edges.append((mod, target, a.name, loading))
                if a.name.startswith("_") and not a.name.startswith("__"):
                    under.append((mod, source, a.name))
    return edges, under


EDGES, UNDERSCORE = _edges(MODULES)


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        if m == goal:
            return True
        if m not in seen:
            seen.add(m)
            todo += graph.get(m, ())
    return False


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _package_of(mod: str) -> str:
    return mod if MODULES[mod].name == "__init__.py" else mod.rsplit(".", 1)[0]


def _graph(loading_only: bool) -> dict[str, set[str]]:
    """Who imports whom; a module of another package brings that package's ``__init__``
    (and its parents') with it, as Python runs them first."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for a, b, _, loading in EDGES:
        if b not in MODULES or b == a or (loading_only and not loading):
            continue
        graph[a].add(b)
        parts = b.split(".")
        for i in range(2, len(parts) + 1):
            pkg = ".".join(parts[:i])
            if pkg in MODULES and pkg != b and MODULES[pkg].name == "__init__.py" \
                    and not (a == pkg or a.startswith(pkg + ".")):
                graph[a].add(pkg)
    return graph


def test_the_walk_sees_the_package():
    # a walk that found nothing would pass everything below
    assert {"phasedsl", "phasedsl.solver", "phasedsl.solver.search", "phasedsl.cli.common",
            "phasedsl.game.engine"} <= set(MODULES)
    assert ("phasedsl.packs.lint", "phasedsl.solver", "impossible_group", True) in EDGES
    assert ("phasedsl.model.phase", "phasedsl.model.dsl", "dsl", True) in EDGES


def test_no_underscore_name_is_imported_across_modules():
    found = sorted(set(UNDERSCORE))
    assert not found, f"underscore names imported from another module: {found}"


def test_no_import_circle_at_load_or_in_a_function():
    assert _circles(_graph(loading_only=True)) == []
    assert _circles(_graph(loading_only=False)) == []


def test_outside_the_solver_only_its_face_is_imported():
    inside = [(a, b) for a, b, _, _ in EDGES
              if b.startswith("phasedsl.solver.") and not a.startswith("phasedsl.solver")]
    assert inside == []


@pytest.mark.parametrize(("source", "found"), [
    ("from ..solver.search import layout_for\n", ("phasedsl.solver.search", "")),
    ("from ..model.cards import _TOKEN\n", ("phasedsl.model.cards", "_TOKEN")),
])
def test_the_walk_catches_what_it_looks_for(tmp_path, source, found):
    # the same walk over the package with one forbidden import added to one module
    path = tmp_path / "bots.py"
    path.write_text(MODULES["phasedsl.players.bots"].read_text(encoding="utf-8") + source)
    edges, under = _edges({**MODULES, "phasedsl.players.bots": path})
    if found[1]:
        assert ("phasedsl.players.bots", *found) in set(under)
    else:
        assert ("phasedsl.players.bots", found[0]) in {(a, b) for a, b, _, _ in edges}


def test_a_circle_is_found():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_the_documented_import_paths_keep_working():
    import importlib

    import phasedsl

    outs_module = importlib.import_module("phasedsl.model.outs")
    solver = importlib.import_module("phasedsl.solver")
    # the package's ``outs`` is the function, though ``phasedsl.model.outs`` is also a module
    assert phasedsl.outs is outs_module.outs is solver.outs and callable(phasedsl.outs)
    assert phasedsl.find is solver.find and phasedsl.shortfall is solver.shortfall
    for name in solver.__all__:
        assert getattr(solver, name) is not None
    assert importlib.import_module("phasedsl.packs.lint").impossible_group is solver.impossible_group


def test_coerce_builds_only_on_the_value_modules():
    # coerce sits below the solver, the hits and the pack loader: an import of any of them,
    # even in a function, closed circles (solver -> coerce -> api -> solver)
    used = {b for a, b, _, _ in EDGES if a == "phasedsl.model.coerce"}
    assert used <= {"phasedsl.errors", *(f"phasedsl.model.{m}" for m in (
        "cards", "meld", "phase", "rules"))}, used


def test_outside_the_hits_only_their_face_is_imported():
    # (read from each import's source: the face's ``plan`` and ``targets`` share their
    # names with its modules)
    inside = []
    for mod, path in MODULES.items():
        if mod.startswith("phasedsl.melds.hits"):
            continue
        for node, _ in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            sources = ([a.name for a in node.names] if isinstance(node, ast.Import)
                       else [_resolve(mod, node.level, node.module, MODULES)])
            inside += [(mod, s) for s in sources if s.startswith("phasedsl.melds.hits.")]
    assert inside == []


def test_the_hits_import_paths_keep_working():
    import subprocess
    import sys

    import phasedsl
    from phasedsl import api
    from phasedsl.api import laid_group  # as the README documents
    from phasedsl.melds import hits

    assert laid_group is hits.laid_group is api.laid_group
    assert phasedsl.hit_plan is hits.plan and phasedsl.hit_targets is hits.targets
    assert callable(hits.plan) and callable(hits.targets)
    assert phasedsl.Hit is hits.Hit and phasedsl.HitPlan is hits.HitPlan
    for name in hits.__all__:
        assert getattr(hits, name) is not None
    with pytest.raises(AttributeError):
        api.no_such_name  # noqa: B018
    # the api loads the hit and layout checks only when first used
    code = ("import sys, phasedsl.api; print(sorted(m for m in sys.modules if m.startswith("
            "('phasedsl.melds.hits', 'phasedsl.melds.layout'))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=PACKAGE.parent, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_log_knows_nothing_of_the_game():
    # the record is below the Game: Game.to_log and Game.from_log write and read it with
    # log.py, which never imports game.py (a circle once, closed in a function)
    graph = _graph(loading_only=False)
    assert not _reaches(graph, "phasedsl.game.log", "phasedsl.game.game")
    assert "phasedsl.game.log" in graph["phasedsl.game.game"]


def test_the_referee_is_layered():
    # legal-move generation checks each candidate with apply; both ask the shared checks;
    # nothing below reaches up (at load or in a function)
    graph = _graph(loading_only=False)
    order = ["phasedsl.game.legal", "phasedsl.game.actions", "phasedsl.game.checks"]
    for k, low in enumerate(order):
        for high in order[:k]:
            assert not _reaches(graph, low, high), (low, high)
    assert "phasedsl.game.actions" in graph["phasedsl.game.legal"]
    assert "phasedsl.game.checks" in graph["phasedsl.game.actions"]


def test_the_engine_keeps_its_names():
    import importlib

    engine = importlib.import_module("phasedsl.game.engine")
    game = importlib.import_module("phasedsl.game")
    gamelog = importlib.import_module("phasedsl.game.log")
    for name in engine.__all__:
        assert getattr(engine, name) is not None
    assert game.apply is engine.apply and game.legal_moves is engine.legal_moves
    assert game.IllegalMove is engine.IllegalMove
    assert gamelog.log_lines is importlib.import_module("phasedsl.game.game").log_lines
    assert gamelog.read_log is not None


LAYERS = ("cli", "web", "conformance", "design", "players", "game", "packs", "dice", "melds",
          "solver", "model", "system")
TOP = {"phasedsl", "phasedsl.__main__", "phasedsl.api", "phasedsl.errors"}


def _readme_packages() -> list[str]:
    # (the layout's page in the documentation: docs/reference/layout.md)
    text = (PACKAGE.parent / "docs" / "reference" / "layout.md").read_text(encoding="utf-8")
    return [row.split("|")[1].strip().strip("`").rstrip("/") for row in text.splitlines()
            if row.startswith("| `")]


def test_the_tree_is_the_readme_map():
    packages = sorted({m.split(".")[1] for m in MODULES if m.count(".") >= 1
                       and MODULES[f"phasedsl.{m.split('.')[1]}"].name == "__init__.py"})
    assert sorted(_readme_packages()) == packages == sorted(LAYERS)
    top = {m for m in MODULES if m.count(".") == 1 and MODULES[m].name != "__init__.py"}
    assert top | {"phasedsl"} == TOP, sorted(top - TOP)


def _face(package: str) -> dict[str, str] | None:
    """A layer's ``FACE`` (name -> its module), read from its ``__init__.py``."""
    tree = ast.parse(MODULES[package].read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "FACE" for t in node.targets):
            return ast.literal_eval(node.value)
    return None


def test_from_outside_a_layer_only_its_face_is_used():
    offenders = []
    for a, b, name, _ in EDGES:
        parts = b.split(".")
        if len(parts) < 2:
            continue
        layer = ".".join(parts[:2])
        if layer not in MODULES or a == layer or a.startswith(layer + "."):
            continue
        face = _face(layer)
        if face is None:
            continue
        module = ".".join(parts[2:])  # the module within the layer ('' for the face itself)
        # (``from ..melds.hits import plan``: the face's function named as its module)
        ok = (name in face if b == layer
              else face.get(name) == module or f"{face.get(name)}.{name}" == module)
        if not ok:
            offenders.append((a, b, name))
    assert offenders == []
    assert all(_face(f"phasedsl.{layer}") for layer in
               ("model", "melds", "packs", "players", "design", "system"))


def test_a_face_names_only_what_its_modules_define():
    import importlib

    for layer in ("model", "melds", "packs", "players", "design", "system"):
        package = importlib.import_module(f"phasedsl.{layer}")
        for name in package.FACE:
            assert getattr(package, name) is not None, (layer, name)


def test_the_old_module_names_still_import():
    # 0.1's flat layout: a script that imports phasedsl.odds gets the module it moved to
    import importlib

    import phasedsl

    for old, new in phasedsl.MOVED.items():
        assert importlib.import_module(f"phasedsl.{old}") is importlib.import_module(
            f"phasedsl.{new}"), old
    # a module inside a moved package, too (not .plan or .targets: importing one by its
    # path sets the package's attribute to it, over the face's function of that name)
    from phasedsl.hits.laid import laid_group

    from phasedsl.melds.hits.laid import laid_group as moved

    assert laid_group is moved
