"""The floors of the house (issue 47): each room of sit is on a floor, and an import runs down the
floors, or along one, never up; no room imports another that imports it back (no import loop
across rooms). A room is a folder of sit (a package) or a module of sit's own; a folder's ``cli``
module is a command, on the commands' floor. Imports inside functions count as imports at the top."""

from __future__ import annotations

import ast
from pathlib import Path

SIT = Path(__file__).resolve().parent.parent / "sit"

#: the floors, from the ground up: what every room uses; the store and the models; the components
#: of a run; a run (its plan, its pipeline, its directory); what reads run directories (reports,
#: comparison, their writers); the commands
FLOORS = (
    {"sit", "errors", "jsonio", "text", "hints", "validate", "options", "registry", "progress", "words", "bags",
     "distance", "inputs", "records", "runmeta", "redact"},
    {"cache", "batching", "stage", "models"},
    {"translators", "perturb", "parse", "textcheck", "eval", "relations", "judge", "summarize", "rank"},
    {"plan", "pipeline", "rerun", "rundir", "blocks", "engine", "regression", "check"},
    {"report", "compare", "formats"},
    {"commands", "cli", "commands:cli"},
)
#: imports that still run up a floor, each named so that no new one joins them (issue 47 asks for
#: at most 4): the pipeline and ``sit check`` write their reports, and ``sit run --cases`` clusters
#: the findings, by calling the readers' floor (the command layer is to hand the writers down);
#: noise perturbations are written by the run directory's atomic writer; the redactor reads the
#: credentials file through the translators' reader
UP = {"sit.pipeline -> sit.report", "sit.check -> sit.report", "sit.regression -> sit.report.clusters",
      "sit.perturb.files -> sit.rundir", "sit.redact -> sit.translators.credentials"}
#: rooms that still import each other, named so that no new loop joins them: the report and
#: comparison formats live in one registry with their writers (:mod:`sit.formats`), which render
#: what report and compare hold and are looked up by them; the ranking asks the relations for
#: their tier, and they rank with it; the redactor reads the translators' credentials file, and
#: the HTTP translators redact with it
LOOPS = [("compare", "formats"), ("compare", "report"), ("formats", "compare"), ("formats", "report"),
         ("rank", "relations"), ("redact", "translators"), ("relations", "rank"), ("report", "formats"),
         ("translators", "redact")]


def _module(path: Path) -> str:
    parts = list(path.relative_to(SIT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room(module: str) -> str:
    """The room of a sit module: its folder or top-level module; a folder's ``cli`` is a command."""
    parts = module.split(".")
    if len(parts) > 2 and parts[-1] == "cli":
        return "commands:cli"
    return parts[1] if len(parts) > 1 else "sit"


def floor(name: str) -> int:
    return next(i for i, rooms in enumerate(FLOORS) if name in rooms)


def imports() -> set[tuple[str, str]]:
    """(module, sit module it imports) for every import of sit, at the top or in a function."""
    files = {_module(p): p for p in SIT.rglob("*.py")}
    found = set()
    for mod, path in files.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                names = [target] + [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            found.update((mod, t) for t in names if t in files and t != mod)
    return found


def test_every_room_is_on_a_floor():
    rooms = {room(m) for edge in imports() for m in edge} | {room(_module(p)) for p in SIT.rglob("*.py")}
    assert sorted(r for r in rooms if not any(r in f for f in FLOORS)) == []


def test_imports_run_down_the_floors():
    up = {f"{a} -> {b}" for a, b in imports() if floor(room(a)) < floor(room(b))}
    assert sorted(up - UP) == []
    assert sorted(UP - up) == []  # mended: take it off the list


def loops(edges: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """(room, room) of each import between two rooms that the second reaches back."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        if room(a) != room(b):
            graph.setdefault(room(a), set()).add(room(b))

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            here = todo.pop()
            if here == goal:
                return True
            if here not in seen:
                seen.add(here)
                todo.extend(graph.get(here, ()))
        return False

    return sorted((a, b) for a, targets in graph.items() for b in targets if reaches(b, a))


def test_no_import_loop_across_rooms():
    found = loops(imports())
    assert [loop for loop in found if loop not in LOOPS] == []
    assert [loop for loop in LOOPS if loop not in found] == []  # mended: take it off the list


def test_the_floor_rules_see_a_breach():
    assert room("sit.perturb.cli") == "commands:cli" and room("sit.perturb.mlm") == "perturb"
    assert floor(room("sit.models.downloads")) < floor(room("sit.perturb"))
    assert loops({("sit.models.downloads", "sit.perturb"), ("sit.perturb.mlm", "sit.models")}) == [
        ("models", "perturb"), ("perturb", "models")]
