"""``numbers``: the numbers, amounts and percentages of a source come out in the translation,
written the way the target language writes them (Babel's CLDR data: ``4.34`` -> ``4,34`` and
``1,000`` -> ``1.000`` in Spanish), with their currency; and a copy of the sentence with one number
changed changes exactly that number in its translation (mozilla/translations #1080).

One case per sentence that has a number: the sentence and its copy with the first number's last
digit changed (:func:`sit.textcheck.numbers.changed_number`). Findings on the sentence's own
translation: ``missing`` (a number in no form), ``format`` (only in the source's form, where the
target writes it otherwise), ``currency`` (the currency dropped), ``grouping`` (a number of five digits
or more without the digit groups the target writes it with by CLDR, minimum grouping digits
included: ``40000`` in English; Ewe groups from six digits),
``conversion`` (an imperial quantity's number kept before a metric unit of the target's CLDR
units: ``200 feet`` -> ``200 Meter``), ``date`` (a date none of the target's CLDR date patterns
writes: ``31 January 2023`` or ``2023-02-11`` in English, :mod:`sit.textcheck.dates`), and with
``units=true`` ``unit`` (an imperial quantity kept in a metric target), with ``repeats=true``
``missing`` for a number the source repeats and the translation writes fewer times, with
``four_digits=true`` ``grouping`` for four-digit numbers too (where CLDR's minimum grouping digits
group them: English ``5000 yuan``); on the copy: ``changed``
(its translation is not the sentence's with that one number changed). Every other text the run
translated is checked by itself too (:mod:`sit.relations.every`).

As annotators judge (docs/precision.md, "Checks against MQM annotations"): a number that names
(``SPSS 22.0``, ``phase 2`` -> ``fase II``, ``figure 3``, a citation ``[12]``) may stay as written
or become a Roman numeral; a number written in words (``10`` -> ``zehn``, ``140亿`` -> ``fourteen
billion``, through num2words) or with a scale word (``2,5 Millionen``) is there; an imperial
quantity may be converted; ``25万`` is 250,000.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Mapping, Optional, Sequence

from ..records import Edit, Issue, Pair
from ..text import quoted
from ..textcheck.software import code_number
from ..textcheck.compare import normalized
from ..textcheck.dates import misformatted_dates
from ..textcheck.numbers import (Number, changed_number, converted_unit, currency_kept, find, metric_target,
                                 misspaced_percent, month_named, month_of, naming_number, numbers_of, product_version, scaled, spelled, target_forms,
                                 to_convert, unconverted, ungrouped, ungrouped_in)
from .base import Checked, Relation
from .every import Origin, merged, other_texts, text_issue
from .verdicts import Verdicts


class NumbersRelation(Relation):
    blockwise = True  # a sentence's cases alone; every other text checked once, where first met
    name = "numbers"
    title = "a number of the source is wrong in the translation"
    kinds = {"missing": "a number of the source is missing from the translation",
             "format": "a number is written the source language's way, not the target's",
             "currency": "the currency of an amount was dropped",
             "grouping": "a number is written without the digit groups CLDR writes it with in the target language",
             "unit": "an imperial quantity was kept as it was where the target language measures in metric",
             "conversion": "an imperial quantity's number stands with a metric unit: the unit converted, not the number",
             "date": "a date is written in an order or a form none of the target language's CLDR date patterns has",
             "changed": "changing one number of the source changed more than that number in the translation"}
    sides = ("source", "number_changed")
    measured = {"format": (23, 23, "production-news.jsonl")}
    severity = {"": 3.0, "format": 2.0, "date": 2.0}
    alone = 1
    alone_options = {"software": True, "repeats": True}
    mqm = {"missing": ("major", "Accuracy/Mistranslation"), "currency": ("major", "Accuracy/Mistranslation"),
           "format": ("minor", "Locale convention/Number format"), "grouping": ("minor", "Locale convention/Number format"),
           "date": ("minor", "Locale convention/Date format"), "conversion": ("minor", "Locale convention/Measurement format"),
           "unit": ("minor", "Locale convention/Measurement format")}
    alone_needs = "Babel's CLDR locale data for the source and the target language"

    @classmethod
    def usable(cls, source_lang: str, target_lang: str) -> str:
        """Babel must know both languages (their CLDR number formats)."""
        if _babel_knows(source_lang) and _babel_knows(target_lang):
            return ""
        return f"{cls.name} left out: Babel has no CLDR data for {source_lang!r} or {target_lang!r}"

    @classmethod
    def cluster_keys(cls, issue: Issue, stops: frozenset[str]):
        """A number kept in the source's format: one bug whatever the separator (the translator
        does not write numbers the target's way; a thousands comma and a decimal point kept are
        one fault, not two)."""
        if issue.kind != "format":
            return None
        numbers = issue.evidence.get("numbers") or []
        text = str(numbers[0].get("number", "")) if numbers and isinstance(numbers[0], dict) else ""
        seps = "".join(dict.fromkeys(c for c in text.strip("$€£¥%+-") if not c.isdigit()))
        return [], ("number", issue.kind) if seps else ("group", issue.group)

    @classmethod
    def cluster_title(cls, key: Sequence[str], issues: Sequence[Issue]) -> str:
        """The separators kept, with an example of each."""
        if key[0] != "number":
            return ""
        examples: dict[str, tuple[str, str]] = {}
        for issue in issues:
            for number in issue.evidence.get("numbers") or []:
                if not isinstance(number, dict):
                    continue
                text = str(number.get("number", ""))
                for sep in (c for c in text.strip("$€£¥%+-") if not c.isdigit()):
                    examples.setdefault(sep, (text, (number.get("expected") or [""])[0]))
        shown = "; ".join(f"{quoted(sep)} in {text}, expected {want}" for sep, (text, want) in sorted(examples.items()))
        return f"numbers keep the source's format instead of the target's ({shown})"

    def __init__(self, ctx, *, changed: bool = True, units: bool = False, repeats: bool = False,
                 four_digits: bool = False, software: bool = False):
        super().__init__(ctx)
        from ..validate import check_bool

        #: read texts as a program's messages: a number in code (``0.5*WAIT``, ``HTTP/0.9``, ``tar <= 1.12``)
        #: stands as written (:func:`sit.textcheck.software.code_number`)
        self.software = check_bool(software, "numbers.software")
        self.changed = check_bool(changed, "numbers.changed")
        #: report imperial quantities kept in a metric target (``unit``); off by default: MQM
        #: annotators ask for the conversion on some sentences and not on others (docs/precision.md)
        self.units = check_bool(units, "numbers.units")
        #: report a number the source repeats and the translation writes fewer times (``missing``);
        #: off by default: 16 of 16 marked on the development file, 0 of 1 held out (docs/precision.md)
        self.repeats = check_bool(repeats, "numbers.repeats")
        #: report four-digit numbers without the groups CLDR's minimum grouping digits give them
        #: (English and German ``5,000``/``5.000``); off by default: annotators mark ``5000 yuan`` in
        #: English (38 of 38 development segments), German ``5000`` mostly not (5 of 12 held out)
        self.four_digits = check_bool(four_digits, "numbers.four_digits")
        self.verdicts = Verdicts(ctx.cache, self.name, self.signature(), ctx.source_lang, ctx.target_lang,
                                 (type(self).__module__,))

    def signature(self) -> dict[str, Any]:
        return {"changed": self.changed, **({"units": True} if self.units else {}),
                **({"repeats": True} if self.repeats else {}), **({"four_digits": True} if self.four_digits else {}),
                **({"software": True} if self.software else {})}

    @property
    def _grouping(self) -> int:
        # the least minimum grouping digits the grouping kind reports from (2 leaves four digits alone)
        return 1 if self.four_digits else 2

    def describe(self) -> str:
        return ("numbers: kept and written the target's way (Babel/CLDR)"
                + (", one number changed changes only it" if self.changed else ""))

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        out = []
        for sid, text in zip(ids, texts):
            found = numbers_of(text, self.ctx.source_lang)
            if not found:
                continue
            first = found[0]
            new = changed_number(first)
            copy = text[:first.start] + new + text[first.end:] if self.changed else text
            edit = Edit(0, first.text, new if self.changed else first.text, self.name, first.start,
                        first.start + len(new), note="changed")
            out.append(Pair(sid, text, copy, edit, relation=self.name))
        return out

    def sources(self, cases: Sequence[Pair]) -> list[str]:
        return [t for p in cases for t in ((p.original, p.perturbed) if self.changed else (p.original,))]

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        kept, changed, compared = [], [], 0
        for pair in cases:
            y, y2 = translation.get(pair.original), translation.get(pair.perturbed)
            if y is None or (self.changed and y2 is None):
                continue
            compared += 1
            kept.append((pair.original, y, Origin(pair.source_id)))
            changed.append((pair, y, y2))
        # every other text the run translated (variants of every relation), each by itself
        kept.extend(other_texts(self.ctx.origins, translation, (p.original for p in cases)))
        verdicts = self.verdicts.many(((x, y) for x, y, _ in kept), self._numbers_found)  # through the cache
        found = []
        for n, (x, y, origin) in enumerate(kept):  # in one pass's order: a case's numbers kept, then changed
            found.extend(self._kept(x, y, origin, verdicts[(x, y)]))
            if self.changed and n < len(changed):
                found.extend(self._changed(*changed[n]))
        return self.checked(merged(found, self.ctx.origins), cases=len(cases), compared=compared,
                            kinds=list(self.kinds))

    def _numbers_found(self, pairs: list[tuple[str, str]]) -> list[dict[str, list[dict]]]:
        """:meth:`_found` of each (text, translation) of ``pairs`` (the verdicts the cache lacks)."""
        return [self._found(x, y) for x, y in pairs]

    def _kept(self, text: str, y: str, origin: Origin, found: Mapping[str, list]) -> list[Issue]:
        """The findings of ``found`` (:meth:`_found` of ``text`` and its translation ``y``), on
        the text from ``origin``: one issue per kind, its distance the numbers of that kind."""
        return [text_issue(self.name, text, y, origin, kind, len(items), {"numbers": items})
                for kind, items in found.items()]

    def _found(self, text: str, y: str) -> dict[str, list[dict]]:
        """The numbers of ``text`` missing from its translation ``y``, in the source's format, or
        without their currency, by kind (JSON, cached: :class:`~sit.relations.verdicts.Verdicts`)."""
        target = self.ctx.target_lang
        by_kind: dict[str, list[dict]] = {}
        for number in numbers_of(text, self.ctx.source_lang):
            forms = expected = target_forms(number, target)
            if any(self._stands(f, y, text) for f in forms):
                kind = "" if not number.currency or currency_kept(number.currency, y, target) else "currency"
                if not kind and misspaced_percent(number, y, target):  # CLDR: German 18 %, English 18%
                    kind, expected = "format", (misspaced_percent(number, y, target),)
                if not kind and ungrouped(number, y, target, at_least=self._grouping) and not naming_number(text, number) \
                        and not (self.software and code_number(text, number.start, number.end)):
                    kind = "grouping"  # 40000 where the target writes 40,000
                if not kind and unconverted(number, text, y, target):  # 200 feet -> 200 Meter
                    kind, expected = "conversion", (unconverted(number, text, y, target),)
                if not kind and self.units and to_convert(text, number) and metric_target(target):
                    kind = "unit"  # 15 feet -> 15 Fuß: annotators ask for metres
            elif number.text not in forms and find(number.text, y) and not scaled(number, y, target):
                # a version stays as written, and so does a zero-padded number (CLDR writes no
                # leading zero: 09 is a clock's or a calendar's field, or a code)
                kind = "" if (naming_number(text, number) or _zero_padded(number)
                              or self.software and (code_number(text, number.start, number.end)
                                                    or product_version(text, number))) else "format"
            elif ((spelled_before(text, number, y, target) if self.software
                   else spelled(number, y, target, roman=naming_number(text, number)))
                  or scaled(number, y, target)
                  or converted_unit(text, number) or _month_in(text, number, y, self.ctx.source_lang, target)
                  or _century_written(number, y)):
                kind = ""  # in words, a Roman numeral, a converted imperial quantity, a month's name, 80 as 1980s
            else:
                kind = "missing"
            if kind:
                by_kind.setdefault(kind, []).append(
                    {"number": (number.currency or "") + number.text, "expected": list(expected)})
        reported = {item["number"] for items in by_kind.values() for item in items}
        for number, times in _fewer(text, y, self.ctx.source_lang, target, words=not self.software) if self.repeats else ():  # 2月11日电2月11日
            if (number.currency or "") + number.text not in reported:
                by_kind.setdefault("missing", []).append({"number": (number.currency or "") + number.text,
                                                          "expected": list(target_forms(number, target)), "times": times})
        seen = {item["expected"][0] for item in by_kind.get("grouping", ())}
        for digits, grouped in ungrouped_in(y, text, target, at_least=self._grouping):  # the source wrote 两万
            if grouped not in seen:
                by_kind.setdefault("grouping", []).append({"number": digits, "expected": [grouped]})
        # 31 January 2023 in English (CLDR: January 31, 2023); a program's messages write dates as literals
        for misdate in () if self.software else misformatted_dates(y, target):
            by_kind.setdefault("date", []).append({"number": misdate.written, "expected": [misdate.expected]})
        return by_kind

    def _stands(self, form: str, y: str, text: str) -> bool:
        """Whether ``form`` stands in ``y``: a program's messages glue numbers to words (``GPLv3``),
        so there one glued to a letter counts only beyond the source's own glued ones
        (``Base64`` for ``base-64``, not ``GPLv3`` for ``version 3`` beside ``GPLv3``)."""
        if not self.software:
            return bool(find(form, y))
        glued = find(form, y) - find(form, y, alone=True)
        return bool(find(form, y, alone=True)) or glued > find(form, text) - find(form, text, alone=True)

    def _changed(self, pair: Pair, y: str, y2: str) -> list[Issue]:
        """The copy's translation should be the sentence's with the one number changed, written
        in the form the sentence's translation used."""
        old = numbers_of(pair.original, self.ctx.source_lang)[0]
        new = numbers_of(pair.perturbed, self.ctx.source_lang)[0]
        pairs = list(zip(target_forms(old, self.ctx.target_lang), target_forms(new, self.ctx.target_lang)))
        pairs.append((old.text, new.text))
        style = next(((a, b) for a, b in pairs if find(a, y)), None)
        if style is None:  # the number is missing already: a finding of its own
            return []
        expected = _replacements(y, *style)
        if normalized(y2) in {normalized(e) for e in expected}:
            return []
        return [Issue(pair, y, y2, 1.0, {}, kind="changed",
                      evidence={"number": old.text, "to": new.text, "expected": expected[0] if expected else ""})]


def _replacements(text: str, old: str, new: str) -> list[str]:
    """``text`` with each one occurrence of the whole number ``old`` replaced by ``new``."""
    pattern = re.compile(rf"(?<![\d.,]){re.escape(old)}(?!\d|[.,]\d)")
    return [text[:m.start()] + new + text[m.end():] for m in pattern.finditer(text)]




def _month_in(text: str, number: Number, y: str, source_lang: str, target_lang: str) -> bool:
    """Whether ``number`` is a month the source writes with digits (CLDR: ``2月``) and ``y`` names
    it in words of the target language (``February``)."""
    month = month_of(text, number, source_lang)
    return bool(month) and month_named(month, y, target_lang)


def _fewer(text: str, y: str, source_lang: str, target_lang: str, *, words: bool = True) -> list[tuple[Number, list[int]]]:
    """The numbers ``text`` writes more often than ``y`` does (in digits, in any of the target's
    forms; written at least once, else they are missing already), each with [its times in
    ``text``, in ``y``]: a repeated date or amount of which the translation dropped one
    (``新华社北京2月11日电2月11日`` -> one ``February 11``). A number the translation also writes in
    words, with a scale word or as a month is left out (its times cannot be counted); with
    ``words=False`` (a program's messages, which write numbers in digits) only in words where it
    stood is (:func:`spelled_before`)."""
    numbers = numbers_of(text, source_lang)
    times = Counter(n.value for n in numbers)
    out, done = [], set()
    for number in numbers:
        if number.value in done:
            continue
        done.add(number.value)
        written = _written(number, y, target_lang)
        if times[number.value] < 2 or not 0 < written < times[number.value]:
            continue
        if len({n.text for n in numbers if n.value == number.value}) > 1:
            continue  # written two ways (0 and 00): the translation's count of one form is no count
        if (spelled(number, y, target_lang) if words
                else any(spelled_before(text, n, y, target_lang) for n in numbers if n.value == number.value)) \
                or scaled(number, y, target_lang) \
                or month_of(text, number, source_lang):
            continue
        out.append((number, [times[number.value], written]))
    return out


def spelled_before(text: str, number: Number, y: str, target_lang: str) -> bool:
    """Whether ``y`` writes ``number`` in words right before the word that follows it in ``text``
    (``1 URL`` -> ``eine URL``, ``un URL``): a program's message writes its other numbers in digits,
    so only a number written in words where it stood counts as written; a digit from 2 to 9
    counts written in words anywhere (``fewer than 3 characters`` -> ``weniger als drei Zeichen``)."""
    if re.fullmatch(r"[2-9]", number.text) and spelled(number, y, target_lang):
        return True  # 2 to 9 in words anywhere (drei Zeichen): none is an article, as "ein" and "un" are
    after = re.match(r"\s*([^\W\d_]{2,})", text[number.end:])
    if after is None:
        return False
    return any(spelled(number, y[max(0, m.start() - 16):m.start()], target_lang)
               for m in re.finditer(rf"(?<!\w){re.escape(after.group(1))}(?!\w)", y, flags=re.IGNORECASE))


def _written(number: Number, y: str, target_lang: str) -> int:
    # how often ``y`` writes ``number`` in digits: in a form of the target or as the source writes it
    return sum(find(form, y) for form in set(target_forms(number, target_lang)) | {number.text})


def _zero_padded(number: Number) -> bool:
    return len(number.text) > 1 and number.text.startswith("0") and number.text[1].isdigit()


def _century_written(number: Number, y: str) -> bool:
    """Whether a two-digit ``number`` stands in ``y`` as the end of a four-digit year, its century
    written out (``80年代`` -> ``the 1980s``, ``the '90s`` -> ``den 1990er Jahren``)."""
    return len(number.text) == 2 and number.text.isdigit() and bool(
        re.search(rf"(?<![\d.,])\d\d{number.text}(?![\d]|[.,]\d)", y))


def _babel_knows(lang: str) -> bool:
    from babel import Locale, UnknownLocaleError

    try:
        Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return False
    return True


__all__ = ["NumbersRelation"]
