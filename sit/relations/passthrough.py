"""``passthrough``: URLs, e-mail addresses, @handles, #hashtags, emoji, inline code, placeholders
(``{name}``, ``%s``, ``%(n)d``, ``{{x}}``) and simple markup (``<b>...</b>``) come through a
translation verbatim; a copy of the sentence with one of them inserted keeps the rest of its
translation as it was (mozilla/translations #171).

One case per sentence: the sentence and its copy with one token inserted before the final
punctuation (markup: around the first word), the kind of token taking turns by sentence id.
Findings: ``missing`` (a token of the sentence, or the inserted one, is not in its translation
verbatim), ``context`` (with the inserted token taken out, the copy's translation is not the
sentence's).
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional, Sequence

from ..errors import ConfigError
from ..records import Edit, Issue, Pair
from ..textcheck.compare import changed_words, difference, normalized
from ..textcheck.software import localised_metavariables, lost_tokens, metavariables
from ..textcheck.tokens import missing_tokens, tokens_of, without
from .base import Checked, Relation
from .every import Origin, merged, other_texts, text_issue

#: the tokens a copy gets, by name (markup wraps the first word in it)
INSERTS = {"url": "https://example.org/report", "email": "press@example.org", "handle": "@newsdesk",
           "hashtag": "#update", "emoji": "📈", "code": "`run_id`", "placeholder": "{name}",
           "printf": "%s", "named-printf": "%(count)d", "template": "{{user}}", "markup": "<b></b>"}


def inserted(text: str, name: str) -> tuple[str, int, str]:
    """``text`` with the token ``name`` inserted: (the copy, where, the token as inserted)."""
    token = INSERTS[name]
    if name == "markup":
        m = re.search(r"\b\w{3,}\b", text)
        if m is None:
            return text, -1, ""
        return text[:m.start()] + "<b>" + m.group() + "</b>" + text[m.end():], m.start(), "<b>"
    end = len(text.rstrip())
    cut = end - 1 if end and text[end - 1] in ".!?" else end
    return text[:cut].rstrip() + " " + token + text[cut:], cut, token


class PassthroughRelation(Relation):
    blockwise = True  # a sentence's cases alone; every other text checked once, where first met
    name = "passthrough"
    title = "a pass-through token was not carried over verbatim"
    kinds = {"missing": "a URL, address, handle, hashtag, emoji, code, placeholder or tag is not in the translation verbatim",
             "context": "inserting a pass-through token changed the rest of the translation",
             "changed": "a format specifier stands for its argument with another conversion, or in another order",
             "localised": "a <metavariable> of the source was translated (passthrough.metavariables=verbatim)",
             "added": "a format specifier stands for an argument the source has none for (a %s or {name} the source lacks)"}
    sides = ("source", "token_inserted")
    measured = {"missing": (19, 20, "production-news.jsonl"), "context": (19, 20, "production-news.jsonl")}
    severity = {"": 3.0, "context": 1.5}
    alone = 2
    alone_options = {"software": True}
    mqm = {"missing": ("major", "Accuracy/Omission"), "changed": ("critical", "Accuracy/Mistranslation"),
           "localised": ("minor", "Locale convention"), "context": ("minor", "Accuracy/Mistranslation"),
           "added": ("critical", "Accuracy/Addition")}

    @classmethod
    def cluster_keys(cls, issue: Issue, stops: frozenset[str]):
        """A token not carried over: its class (hashtag, placeholder ...); inserting one changed
        the sentence: the class inserted."""
        fallback = ("group", issue.group)
        if issue.kind == "missing":
            tokens = issue.evidence.get("tokens") or []
            kinds = [("token", str(t.get("type"))) for t in tokens if isinstance(t, dict) and t.get("type")]
            return kinds, kinds[0] if kinds else fallback
        if issue.kind == "context":
            found = tokens_of(str(issue.evidence.get("token") or ""))
            return [], ("token-context", found[0].kind) if found else fallback
        return None

    @classmethod
    def cluster_title(cls, key: Sequence[str], issues: Sequence[Issue]) -> str:
        if key[0] == "token":
            example = next((str(t["token"])[:40] for i in issues for t in i.evidence.get("tokens") or []
                            if isinstance(t, dict) and t.get("token")), "?")
            return f"{key[1]} tokens are not carried over verbatim (e.g. {example})"
        if key[0] == "token-context":
            return f"inserting a {key[1]} token changes the rest of the sentence's translation"
        return ""

    @classmethod
    def mqm_of(cls, issue: Issue):
        """A lost format specifier is critical (the program fills it in: a crash or a wrong value)."""
        if issue.kind == "missing" and any(isinstance(t, dict) and t.get("type") == "placeholder"
                                           for t in issue.evidence.get("tokens") or ()):
            return "critical", cls.mqm["missing"][1]
        return super().mqm_of(issue)

    @classmethod
    def without_counts(cls, issue: Issue, one_alone: bool = True) -> Optional[Issue]:
        """A singular form's lost format specifiers are its count, which it may leave out (where
        ``one_alone``), and so are those it adds (``one file`` as ``%d файл``: Russian's "one" holds 21 too)."""
        from dataclasses import replace

        if issue.kind == "added":
            return None
        tokens = issue.evidence.get("tokens") or []
        if issue.kind != "missing" or not one_alone:
            return issue
        kept = [t for t in tokens if not (isinstance(t, dict) and t.get("type") == "placeholder")]
        if not kept:
            return None
        return replace(issue, distance=float(len(kept)), evidence={**issue.evidence, "tokens": kept})

    def __init__(self, ctx, *, inserts: Any = None, software: bool = False, metavariables: str = "count"):
        super().__init__(ctx)
        from ..validate import check_bool, names_list

        #: read texts as a program's messages (sit.textcheck.software): format specifiers compared
        #: by argument, options, paths, XLIFF codes carried over; quoted terms may be translated
        self.software = check_bool(software, "passthrough.software")
        if metavariables not in ("count", "verbatim"):
            raise ConfigError(f"passthrough.metavariables: count or verbatim, got {metavariables!r}")
        self.metavariables = metavariables

        chosen = tuple(INSERTS) if inserts is None else names_list(inserts, "passthrough.inserts")
        unknown = [n for n in chosen if n not in INSERTS]
        if unknown:
            raise ConfigError(f"passthrough.inserts: unknown {', '.join(unknown)}; choose among {', '.join(INSERTS)} "
                              "(or none: passthrough.inserts=)")
        self.inserts = chosen

    def signature(self) -> dict[str, Any]:
        return {"inserts": list(self.inserts), "software": self.software, "metavariables": self.metavariables}

    def describe(self) -> str:
        return (f"passthrough: tokens verbatim; copies with one of {', '.join(self.inserts)} inserted"
                if self.inserts else "passthrough: tokens verbatim")

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        out = []
        for sid, text in zip(ids, texts):
            copy, at, token = (inserted(text, self.inserts[sid % len(self.inserts)]) if self.inserts
                               else (text, -1, ""))
            if copy == text and not tokens_of(text):
                continue  # nothing to carry over and nothing inserted: no case
            edit = Edit(0, "", token, self.name, at, at + len(token), note="inserted" if token else "")
            out.append(Pair(sid, text, copy, edit, relation=self.name))
        return out

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        done = self.translated(cases, translation)
        found = [issue for pair, y, y2 in done for issue in self._issues(pair, y, y2)]
        # every other text the run translated (variants of every relation), each by itself
        for x, y, origin in other_texts(self.ctx.origins, translation, (p.original for p in cases)):
            found += self._lost(x, y, origin)
        return self.checked(merged(found, self.ctx.origins), cases=len(cases), compared=len(done),
                            kinds=list(self.kinds))

    def _issues(self, pair: Pair, y: str, y2: str) -> list[Issue]:
        out = self._lost(pair.original, y, Origin(pair.source_id))
        token = pair.edit.after
        if not token or pair.perturbed == pair.original:
            return out
        dropped = [t for t in missing_tokens(pair.perturbed, y2) if t.text in (token, "</b>")]
        if dropped:  # the inserted token itself was not carried over
            out.append(Issue(pair, y, y2, float(len(dropped)), {}, kind="missing",
                             evidence={"tokens": [{"token": t.text, "type": t.kind} for t in dropped],
                                       "inserted": True}))
            return out
        if token == "<b>":  # the tags around a word, with the spaces around them kept
            rest = without(without(y2, "<b>", space=False), "</b>", space=False)
        else:  # inserted at the end: the last occurrence
            rest = without(y2, token, last=True)
        if normalized(rest) != normalized(y):
            out.append(Issue(pair, y, y2, float(max(1, changed_words(y, rest))), {}, kind="context",
                             evidence={"token": token, "difference": difference(normalized(y), normalized(rest))}))
        return out


    def _lost(self, x: str, y: str, origin: Origin) -> list[Issue]:
        """The findings on ``x`` translated ``y`` by itself: tokens not carried over (``missing``),
        and as a program's message, format specifiers ``changed``, and ``<metavariables>`` fewer
        than the source's (``missing``) or, with ``metavariables=verbatim``, translated (``localised``)."""
        if not self.software:
            lost = missing_tokens(x, y)
            return [text_issue(self.name, x, y, origin, "missing", len(lost), _lost(lost))] if lost else []
        found = {"missing": [], "changed": [], "localised": [], "added": []}
        for t in lost_tokens(x, y):
            found[t.what].append({"token": t.token[:200], "type": t.kind, **({"found": t.found} if t.found else {})})
        ours, theirs = metavariables(x), metavariables(y)
        if len(theirs) < len(ours):
            found["missing"] += [{"token": m[:200], "type": "metavariable"} for m in ours[len(theirs):]]
        elif self.metavariables == "verbatim":
            found["localised"] = [{"token": a, "type": "metavariable", "found": b}
                                  for a, b in localised_metavariables(x, y) or ()]
        return [text_issue(self.name, x, y, origin, kind, len(tokens), {"tokens": tokens})
                for kind, tokens in found.items() if tokens]


def _lost(tokens) -> dict[str, Any]:
    """The evidence of a ``missing`` finding: the tokens not carried over, with their kinds."""
    return {"tokens": [{"token": t.text[:200], "type": t.kind} for t in tokens]}
