"""The rooms of the house: the cache and the models/data each one package with one face, no import circle."""

import ast
from pathlib import Path

SIT = Path(__file__).resolve().parent.parent / "sit"
ROOMS = ("sit.cache", "sit.models")


def _module(path: Path) -> str:
    parts = list(path.relative_to(SIT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every sit module ``path`` imports, at the top or inside a function."""
    mod = _module(path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    files = {_module(p): p for p in SIT.rglob("*.py")}
    return {m: {t for t in _imports(p) if t in files and t != m} for m, p in files.items()}


def _reaches(graph, start, goal) -> bool:
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        if m == goal:
            return True
        if m not in seen:
            seen.add(m)
            todo.extend(graph.get(m, ()))
    return False


def _in_room(module: str, room: str) -> bool:
    return module == room or module.startswith(room + ".")


def test_the_cache_and_the_models_are_packages_with_no_import_circle():
    graph = _graph()
    circles = sorted((a, b) for a, targets in graph.items() for b in targets
                     if any(_in_room(a, r) or _in_room(b, r) for r in ROOMS) and _reaches(graph, b, a))
    assert circles == []
    assert not any((SIT / f"{name}.py").exists() for name in
                   ("cache", "cachedb", "cachejsonl", "cacheops", "cachesalvage", "cacheclaims", "hf", "hub", "devices",
                    "wordnetdb", "spacymodels", "downloads"))


def test_code_outside_the_models_package_imports_its_face():
    graph = _graph()
    through_the_side = sorted((a, b) for a, targets in graph.items() for b in targets
                              if _in_room(b, "sit.models") and b != "sit.models"
                              and not _in_room(a, "sit.models") and b != "sit.models.hf")
    assert through_the_side == []
