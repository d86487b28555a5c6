"""Games are plug-ins found by entry points: loaded one at a time, the layers kept apart."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import thievery
from thievery.core import GamePlugin, UnknownGame
from thievery.core.registry import GROUP, _entry_points

SRC = Path(thievery.__file__).resolve().parent
BUILT_IN = ["schattendieb", "schatz-rabatz", "thieves", "thieves-den"]


def _run(code: str) -> str:
    """Run ``code`` in a fresh interpreter (nothing imported yet) and return its stdout."""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return out.stdout


def test_the_four_games_are_declared_as_entry_points() -> None:
    # Other installed distributions may add games; ours are the thievery.games.* ones.
    points = {n: p for n, p in _entry_points().items() if p.value.startswith("thievery.games.")}
    assert sorted(points) == ["schattendieb", "schatz-rabatz", "thieves", "thieves-den"]
    for name, point in points.items():
        assert point.group == GROUP
        loaded = thievery.plugin(name)
        assert isinstance(loaded, GamePlugin) and loaded.spec.name == name
        assert loaded.bots["heuristic"]  # every built-in game has its own heuristic


def test_a_game_subpackage_imports_by_its_dotted_name() -> None:
    out = _run("import thievery.games.thieves as t; print(t.GAME.spec.name)")
    assert out.strip() == "thieves"


def test_loading_one_game_imports_no_other_game_and_no_rich() -> None:
    code = (
        "import sys, json, thievery\n"
        "names = thievery.game_names()\n"
        "before = sorted(m for m in sys.modules if m.startswith('thievery.games.'))\n"
        "thievery.game('thieves').new(3, 1)\n"
        "games = [m for m in sys.modules if m.startswith('thievery.games.')]\n"
        "after = sorted({m.split('.')[2] for m in games})\n"
        "print(json.dumps([names, before, after, 'rich' in sys.modules]))"
    )
    names, before, after, rich = json.loads(_run(code))
    assert set(BUILT_IN) <= set(names)
    assert before == []  # listing the games loads none of them
    assert after == ["thieves"]
    assert rich is False  # the terminal renderer is imported on demand only


def test_the_cli_starts_without_importing_the_games() -> None:
    code = (
        "import sys, thievery.cli\n"
        "print(sorted(m for m in sys.modules if m.startswith('thievery.games.')))"
    )
    assert _run(code).strip() == "[]"


def test_an_unknown_game_is_refused_with_the_known_names() -> None:
    with pytest.raises(UnknownGame, match="schattendieb"):
        thievery.plugin("chess")
    with pytest.raises(TypeError):
        thievery.register("not a plugin")  # type: ignore[arg-type]


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def _package_imports(package: str) -> set[str]:
    out: set[str] = set()
    for path in (SRC / package).rglob("*.py"):
        out |= {m for m in _imports(path) if m.startswith("thievery")}
    return out


def test_the_layers_import_only_downwards() -> None:
    core = _package_imports("core")
    assert all(m.startswith("thievery.core") for m in core), sorted(core)
    bots = _package_imports("bots")
    assert all(m.startswith(("thievery.core", "thievery.bots")) for m in bots), sorted(bots)
    games = _package_imports("games")
    banned = ("thievery.sim", "thievery.server", "thievery.cli", "thievery.testing")
    assert not [m for m in games if m.startswith(banned)]
    for face in ("sim", "cli", "server", "testing"):  # games only through the registry
        named = [m for m in _package_imports(face) if m.startswith("thievery.games")]
        assert not named, f"{face} imports a game by name: {named}"
    for game in ("schattendieb", "thieves", "thieves_den", "schatz_rabatz"):
        own = _package_imports(f"games/{game}")
        others = [m for m in own if m.startswith("thievery.games.") and m.split(".")[2] != game]
        assert not others, f"{game} imports another game: {others}"


def test_no_import_circles_among_packages() -> None:
    """The graph of subpackages (core, bots, games/<game>, sim, cli, server, testing, web)
    by their imports has no cycle."""

    def unit(module: str) -> str:
        parts = module.split(".")
        if len(parts) > 2 and parts[1] == "games":
            return ".".join(parts[:3])
        return ".".join(parts[:2])

    graph: dict[str, set[str]] = {}
    for path in SRC.rglob("*.py"):
        relative = path.relative_to(SRC.parent).with_suffix("")
        here = unit(".".join(relative.parts))
        edges = graph.setdefault(here, set())
        edges |= {unit(m) for m in _imports(path) if m.startswith("thievery.")} - {here}
    edges_of = {k: {e for e in v if e in graph} for k, v in graph.items()}
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges_of[node]):
            if state.get(nxt) == 1:
                raise AssertionError(f"import circle: {' -> '.join([*trail, node, nxt])}")
            if nxt not in state:
                visit(nxt, [*trail, node])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert "thievery.core" in graph and not edges_of["thievery.core"]


def test_every_built_in_game_carries_its_faces_and_rules_page() -> None:
    for name in BUILT_IN:
        game = thievery.plugin(name)
        assert game.web_file("game.js") is not None, name
        assert game.terminal() is not None, name
        text = game.rules_text()
        assert text is not None and text.startswith("# "), name


def test_a_broken_plug_in_is_named_and_leaves_the_others_playable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from importlib.metadata import EntryPoint

    from thievery.core import registry

    points = dict(registry._entry_points())
    points["broken"] = EntryPoint("broken", "no_such_module_here:GAME", GROUP)
    points["misnamed"] = EntryPoint("misnamed", "thievery.games.thieves:GAME", GROUP)
    monkeypatch.setattr(registry, "_entry_points", lambda: points)
    with pytest.raises(UnknownGame, match="could not be loaded from no_such_module_here"):
        thievery.plugin("broken")
    with pytest.raises(UnknownGame, match="the two names must agree"):
        thievery.plugin("misnamed")
    playable = {g.name for g in registry.playable()}
    assert set(BUILT_IN) <= playable and not {"broken", "misnamed"} & playable


def test_a_game_without_its_rules_page_file_has_none() -> None:
    from dataclasses import replace

    missing = replace(thievery.plugin("thieves"), rules="NO_SUCH_PAGE.md")
    assert missing.rules_text() is None
    assert replace(missing, rules=None).rules_text() is None


def test_the_clock_seat_belongs_to_real_time_games_only() -> None:
    from thievery.core import CLOCK, IllegalAction

    thieves = thievery.game("thieves").new(3, 1)
    with pytest.raises(IllegalAction, match="has no clock"):
        thieves.apply(CLOCK, {"type": "tick", "now_ms": 5})
    packing = thievery.game("schatz-rabatz").new(2, 1)
    with pytest.raises(IllegalAction, match="there is no seat"):
        packing.apply(-1.0, {"type": "tick", "now_ms": 5})  # type: ignore[arg-type]
    packing.apply(CLOCK, {"type": "tick", "now_ms": 5})
    assert packing.now_ms == 5  # type: ignore[attr-defined]


def test_a_rules_page_in_another_language_falls_back_to_the_page_itself() -> None:
    game = thievery.plugin("thieves")
    english = game.rules_text()
    for lang in ("xx", "../RULES", ""):
        assert game.rules_text(lang) == english, lang
