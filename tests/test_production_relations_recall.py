"""Recall of the production relations against faults injected at known rates into known texts, and
their false alarms on a translator invariant by construction (tests/production_fakes.py; the
figures: benchmarks/bench_recall.py, docs/relations.md)."""

from __future__ import annotations

import pytest

from production_fakes import DictTranslator, FaultyTranslator, corpus, false_alarms, recall, run_recall
from sit.translators import TRANSLATORS


@pytest.fixture(scope="module")
def registered():
    """The test translators, through the registry as any adapter, for this module's tests."""
    TRANSLATORS.register("dict-test", DictTranslator)
    TRANSLATORS.register("faulty-test", FaultyTranslator)
    yield
    TRANSLATORS.unregister("dict-test")
    TRANSLATORS.unregister("faulty-test")


def test_every_injected_fault_type_is_found_at_least_95_percent(registered, tmp_path):
    texts, faults = corpus(n=200, per_fault=20)
    issues = run_recall("faulty-test", texts, tmp_path)
    for fault, (found, injected) in recall(issues, faults).items():
        assert injected == 20, fault
        assert found / injected >= 0.95, f"{fault}: {found}/{injected}"


def test_the_clean_translator_flags_at_most_5_percent_of_texts(registered, tmp_path):
    texts, _ = corpus(n=200, per_fault=20)
    issues = run_recall("dict-test", texts, tmp_path)
    flagged, total, groups = false_alarms(issues, texts)
    assert total == 200
    assert flagged / total <= 0.05, groups
