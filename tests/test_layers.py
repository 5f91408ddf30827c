"""The floors of the house (issue 47): each room of sit is on a floor, and an import runs down the
floors, or along one, never up; no room imports another that imports it back (no import loop
across rooms). A room is a folder of sit (a package) or a module of sit's own; a folder's ``cli``
module is a command, on the commands' floor. Imports inside functions count as imports at the top."""

from __future__ import annotations

from test_rooms import _graph, _reaches

#: the floors, from the ground up: what every room uses (records, options, registries: the writer
#: registry among them, which names the formats without importing them); the store, the models and
#: the stage every component builds on; the components of a run; a run (its plan, its pipeline, its
#: directory and, last of its stages, its reports, which read the run directory and look their
#: writers up by name); what reads several runs (the comparison) and the writers of both, which
#: render what reports and comparisons hold; the commands
FLOORS = (
    {"sit", "errors", "jsonio", "text", "hints", "validate", "options", "registry", "progress", "words", "bags",
     "distance", "inputs", "records", "runmeta", "redact", "credentials", "writers"},
    {"cache", "batching", "stage", "models"},
    {"translators", "perturb", "parse", "textcheck", "eval", "relations", "judge", "summarize"},
    {"plan", "pipeline", "rerun", "rundir", "blocks", "engine", "regression", "check", "report", "ignorefile", "severity"},
    {"compare", "formats"},
    {"commands", "cli", "commands:cli"},
)
#: imports that still run up a floor, each named so that no new one joins them (issue 47 asks for
#: at most 4): noise perturbations are written by the run directory's atomic writer
UP = {"sit.perturb.files -> sit.rundir"}


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
    return {(a, b) for a, targets in _graph().items() for b in targets}


def test_every_room_is_on_a_floor():
    rooms = {room(m) for m in _graph()}
    assert sorted(r for r in rooms if not any(r in f for f in FLOORS)) == []


def test_imports_run_down_the_floors():
    up = {f"{a} -> {b}" for a, b in imports() if floor(room(a)) < floor(room(b))}
    assert sorted(up - UP) == [] and len(UP) <= 4
    assert sorted(UP - up) == []  # mended: take it off the list


def loops(edges: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """(room, room) of each import between two rooms that the second reaches back."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        if room(a) != room(b):
            graph.setdefault(room(a), set()).add(room(b))
    return sorted((a, b) for a, targets in graph.items() for b in targets if _reaches(graph, b, a))


def test_no_import_loop_across_rooms():
    # none (issue 47): the ranking is the relations' own (sit.relations.rank: it asks them for their
    # declared tier), and the credentials file is read on the ground floor (sit.credentials), by the
    # redactor and the HTTP translators alike
    assert loops(imports()) == []


def test_the_floor_rules_see_a_breach():
    assert room("sit.perturb.cli") == "commands:cli" and room("sit.perturb.mlm") == "perturb"
    assert floor(room("sit.models.downloads")) < floor(room("sit.perturb"))
    assert loops({("sit.models.downloads", "sit.perturb"), ("sit.perturb.mlm", "sit.models")}) == [
        ("models", "perturb"), ("perturb", "models")]
