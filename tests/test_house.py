"""The house rules issue 22 set, read from sit's own source with ``ast``: functions short enough to
read at once, and no module reaching into another's underscore names."""

from __future__ import annotations

import ast
from pathlib import Path

import sit

SOURCE = Path(sit.__file__).parent
MAX_LINES = 60
#: underscore names of other packages sit uses on purpose: the standard library's documented
#: ``os._exit`` and namedtuple's ``_replace``, the exit functions run before ``os._exit``,
#: sacrebleu's chrF steps (eval/fast.py scores segments without re-reading references) and NLTK's
#: WordNet lemmatiser
THIRD_PARTY = {"os._exit", "parts._replace", "atexit._run_exitfuncs", "metric._preprocess_segment",
               "metric._extract_reference_info", "metric._compute_segment_statistics",
               "metric._aggregate_and_compute", "self.wn._morphy"}


def _modules():
    for path in sorted(SOURCE.rglob("*.py")):
        yield path.relative_to(SOURCE.parent), ast.parse(path.read_text(encoding="utf-8"))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined(tree: ast.AST) -> set[str]:
    """Every name a module defines: functions, classes, variables and attributes it assigns."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _own_object(node: ast.Attribute) -> bool:
    base = node.value
    return (isinstance(base, ast.Name) and base.id in ("self", "cls")) or (
        isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super")


def long_functions(tree: ast.AST) -> list[str]:
    return [f"{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)" for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_LINES]


def private_imports(tree: ast.AST) -> list[str]:
    return [f"{node.lineno} from {node.module} import {alias.name}" for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module != "__future__"
            for alias in node.names if _private(alias.name)]


def reach_ins(tree: ast.AST) -> list[str]:
    own = _defined(tree)
    return [f"{node.lineno} {ast.unparse(node)}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and _private(node.attr) and not _own_object(node)
            and node.attr not in own and ast.unparse(node) not in THIRD_PARTY]


def test_no_function_is_over_60_lines():
    assert [f"{path}:{line}" for path, tree in _modules() for line in long_functions(tree)] == []


def test_no_module_imports_another_modules_underscore_names():
    assert [f"{path}:{line}" for path, tree in _modules() for line in private_imports(tree)] == []


def test_no_module_reads_an_underscore_attribute_it_does_not_define():
    assert [f"{path}:{line}" for path, tree in _modules() for line in reach_ins(tree)] == []


def test_the_rules_see_a_breach():
    """The readers above find what they look for (a long function, a private import, a reach-in)."""
    tree = ast.parse("from .x import _hidden\n\ndef f(obj):\n" + "    a = 1\n" * 60 + "    return obj._inner\n\n"
                     "class C:\n    def g(self, other):\n        self._mine = other._mine\n")
    assert long_functions(tree) == ["3 f (62 lines)"]
    assert private_imports(tree) == ["1 from x import _hidden"]  # ast keeps the dots in ImportFrom.level
    assert reach_ins(tree) == ["64 obj._inner"]  # not other._mine: this module defines _mine
