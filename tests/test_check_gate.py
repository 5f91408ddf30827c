"""The checks of a localisation gate in ``sit check`` (issue 48; sit.relations.gate): real catalogue
messages (bash, wget, tar, dpkg, gawk in Spanish and German, as their translators wrote them) pass
the defaults; faults are found with their severity and MQM category, the real ones those
catalogues hold among them; XLIFF's inline codes and ``maxwidth`` are read from the XML;
consistency reports a group once with every line; a glossary and a do-not-translate list are read,
and bad files are one-line errors; the SARIF of these findings validates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sit.cli import main
from sit.textcheck.form import edge_whitespace, repeated_words, unpaired_brackets, unpaired_quotes

#: messages of installed catalogues, as their translators wrote them, that a gate must leave alone:
#: a column's padding, indentation by another number of spaces, rewrapped help text, an option
#: letter against a word ("N or O"), a doubled command the source quotes, a quotation mark
#: translated alone, a German relative pronoun after a comma, a help table's capitals
CLEAN = [
    ("Directory   ", "Directorio  "),
    ("  link %s is %s", " el enlace %s es %s"),
    ("    N or O  : keep your currently-installed version\n", "    N o O  : conservar la versión que tiene instalada\n"),
    ("No help topics match `%s'.  Try `help help' or `man -k %s' or `info %s'.",
     "Kein passendes Hilfethema für »%s«. Probieren Sie »help help«, »man -k %s« oder »info %s«."),
    ("'", "»"),
    ("Show the files that are not in the archive", "Die Dateien zeigen, die die Sicherung nicht enthält"),
    ("Shell commands matching keyword `", "Shellkommando, auf das das Schlüsselwort zutrifft `"),
    ("Usage: %s [OPTION]... MYFILE OLDFILE YOURFILE\n", "Modo de empleo: %s [OPCIÓN]... MI-FICHERO FICHERO-ANTIGUO "
     "TU-FICHERO\n"),
    ("       --crl-file=FILE             file with bundle of CRLs\n",
     "       --crl-file=FICHERO          fichero con la agrupación de CRLs\n"),
    ("Returns success unless an invalid option is given or the current directory\n    cannot be read.",
     "Gibt Erfolg zurück, außer wenn eine ungültige Option angegeben oder das aktuelle\n    Verzeichnis nicht "
     "lesbar ist."),
    ("Click <b>Save</b> to keep the file", "Pulse <b>Guardar</b> para conservar el fichero"),
]
#: faults, the group each must set off, and its severity; the first three are real (bash and dpkg
#: in Spanish, findutils in German), the others injected into real messages
FAULTY = [
    ("pushd [-n] [+N | -N | dir]", "pushd [-n] [+N | -N | dir", "brackets.brackets", "minor"),
    ("file '%.250s' is corrupt - %.250s missing", "el fichero `%.250s' está dañado - falta %.250s\"",
     "brackets.quotes", "minor"),
    ("File descriptor %d will leak; please report this as a bug.",
     "Dateideskriptor %d wird wird einen Überlauf verursachen. Bitte melden Sie dies als Fehler.",
     "repetition.word", "minor"),
    ("No such file %s.\n", "No existe el fichero %s.", "whitespace.edges", "major"),
    ("Click <b>Save</b> to keep the file", "Pulse <b>Guardar</b></b> para conservar el fichero", "codes.count", "major"),
    ("Click <b>Save</b> or <i>Cancel</i>", "Pulse <i>Guardar</i> o <b>Cancelar</b>", "codes.order", "minor"),
    ("Can't stat package info file", "Paket-Infodatei Infodatei kann nicht abgefragt werden", "repetition.word",
     "minor"),
]


def _jsonl(path: Path, pairs) -> str:
    path.write_text("".join(json.dumps({"source": s, "translation": t}) + "\n" for s, t, *_ in pairs), encoding="utf-8")
    return str(path)


def _check(tmp_path, source, *args, out="out", lang="es"):
    return main(["check", "--source", source, "--target-lang", lang, "--out", str(tmp_path / out), "--force",
                 "--cache-dir", str(tmp_path / "cache"), "--ignore-file", "", "--report", "text", *args])


def _issues(tmp_path, out="out"):
    return [json.loads(line) for line in (tmp_path / out / "issues.jsonl").read_text().splitlines()]


GATE = "brackets,whitespace,repetition,codes,width"


def test_form_rules_on_their_own():
    assert unpaired_brackets("pushd [-n] [dir]", "pushd [-n] [dir") == ["[] +0 -> +1"]
    assert unpaired_brackets("1) first", "1) primero") == []  # the source's own balance is kept
    assert unpaired_quotes('say "hi"', 'di "hola') and not unpaired_quotes('"a" b', "«a» b")
    assert edge_whitespace("text\n", "texto") == ["end '\\n' -> ''"]
    assert edge_whitespace("File   ", "Fichero  ") == [] and edge_whitespace("File   ", "Fichero", spaces=True)
    assert repeated_words("Open the file", "Abre el el fichero", "es") == ["el"]
    assert repeated_words("the files that", "die Dateien, die die Sicherung", "de") == []  # after a comma: grammar
    assert repeated_words("the files that", "die die Dateien", "es") == ["die"]
    assert repeated_words("Y or I, N or O", "Y o I, N o O", "es") == []
    # blind labels (docs/labels/blind-issue48-s46/): a noun and the metavariable translated, an option's letter
    assert repeated_words("called NAME, and give it VALUE.", "Name und weist ihr den Wert Wert zu.", "de") == []
    assert repeated_words("the file FILE", "die Datei Datei", "de") == []
    assert repeated_words("the URL is at", "die URL ist Datei Datei", "de") == ["Datei"]  # URL kept: no metavariable
    assert repeated_words("cannot use -o or -f", "no puede utilizarse -o o -f", "es") == []
    assert repeated_words("give it VALUE", "dale el valor valor", "es") == ["valor"]


def test_default_edges_compare_what_the_blind_labels_call_real(tmp_path):
    """Blind labels (docs/labels/blind-issue48-s46/gate/): a blank line dropped or added at the end
    and a space added at the start are real; a space at the end is not (nothing shows it)."""
    pairs = [("more details.\n\n", "weitere Details.\n"), ("Options:\n", "Optionen:\n\n"),
             ("%s: first character", " %s: erstes Zeichen"), ("missing final newline", "falta un salto "),
             ("  -T, --timeout=SECONDS\n", "  -T, --timeout=SEGUNDOS pone\n         a SEGUNDOS\n")]
    source = _jsonl(tmp_path / "edges.jsonl", pairs)
    assert _check(tmp_path, source, "--checks", "whitespace", out="lines") == 0
    assert {(r["source_id"], r["group"]) for r in _issues(tmp_path, "lines")} == {
        (1, "whitespace.edges"), (2, "whitespace.edges"), (3, "whitespace.edges")}
    assert _check(tmp_path, source, "--checks", "whitespace", "--relation-option", "whitespace.edges=newlines",
                  "--fail-on", "any") == 0  # as msgfmt -c: a line break there or none


def test_real_messages_pass_and_faults_are_found_with_their_severity(tmp_path):
    # German rules: ", die die" is German grammar (the Spanish messages' rules are the same but for that)
    assert _check(tmp_path, _jsonl(tmp_path / "clean.jsonl", CLEAN), "--checks", GATE, "--fail-on", "any",
                  out="clean", lang="de") == 0
    assert _check(tmp_path, _jsonl(tmp_path / "bad.jsonl", FAULTY), "--checks", GATE, out="bad", lang="de") == 0
    found = {(row["source_id"], row["group"]): row for row in _issues(tmp_path, "bad")}
    for line, (_, _, group, severity) in enumerate(FAULTY, start=1):
        assert found[(line, group)]["severity"] == severity, (line, group)
    assert len(found) == len(FAULTY)  # one finding a fault: nothing else set off
    assert found[(5, "codes.count")]["evidence"]["added"] == ["</b>"]
    assert found[(5, "codes.count")]["category"] == "Design and markup/Markup tag"
    # the gate checks run by default
    assert _check(tmp_path, _jsonl(tmp_path / "bad.jsonl", FAULTY), out="default", lang="de") == 0
    assert {(row["source_id"], row["group"]) for row in _issues(tmp_path, "default")} >= set(found)


def test_whitespace_options_turn_on_what_the_defaults_leave(tmp_path):
    pairs = [("%s: Is a directory", "%s: es un directorio "), ("Two words", "Dos  palabras"),
             ("one\ntwo\n", "uno dos\n")]
    source = _jsonl(tmp_path / "ws.jsonl", pairs)
    assert _check(tmp_path, source, "--checks", "whitespace", "--fail-on", "any") == 0
    assert _check(tmp_path, source, "--checks", "whitespace", "--relation-option", "whitespace.edges=all",
                  "--relation-option", "whitespace.spaces=true", "--relation-option", "whitespace.newlines=true",
                  out="all") == 0
    assert {(r["source_id"], r["group"]) for r in _issues(tmp_path, "all")} == {
        (1, "whitespace.edges"), (2, "whitespace.spaces"), (3, "whitespace.newlines")}
    assert _check(tmp_path, source, "--checks", "whitespace", "--relation-option", "whitespace.edges=some") == 2


XLIFF = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="app" source-language="en" target-language="es" datatype="plaintext"><body>
<trans-unit id="ok" maxwidth="40" size-unit="char"><source>Click <x id="1"/> then <g id="2">Save</g></source>
<target>Pulse <x id="1"/> y <g id="2">Guardar</g></target></trans-unit>
<trans-unit id="dropped"><source>Open <bpt id="1">&lt;b&gt;</bpt>file<ept id="1">&lt;/b&gt;</ept> <ph id="2">%s</ph></source>
<target>Abrir archivo<ept id="1">&lt;/b&gt;</ept> <ph id="2">%s</ph></target></trans-unit>
<trans-unit id="moved"><source><g id="1">Name</g>: <x id="2"/></source>
<target><x id="2"/>: <g id="1">Nombre</g></target></trans-unit>
<trans-unit id="long" maxwidth="12" size-unit="char"><source>Save all</source>
<target>Guardar todos los cambios</target></trans-unit>
<trans-unit id="pixels" maxwidth="12"><source>Save all</source>
<target>Guardar todos los cambios</target></trans-unit>
</body></file></xliff>
"""


def test_xliff_inline_codes_and_maxwidth_come_from_the_xml(tmp_path):
    path = tmp_path / "app.xlf"
    path.write_text(XLIFF, encoding="utf-8")
    assert _check(tmp_path, str(path), "--checks", "codes,width") == 0
    found = {(row["source_id"], row["group"]): row["evidence"] for row in _issues(tmp_path)}
    # translate-toolkit's text of a unit has no codes: only the XML tells the <bpt> lost
    assert found.pop((6, "codes.count"))["lost"] == ["<bpt 1/>"]
    assert found.pop((8, "codes.order"))["translation"] == ["<x 2/>", "<g 1>", "</g 1>"]
    assert found.pop((10, "width.width"))["limit"] == 12
    assert found == {}  # the first unit is right; a maxwidth without size-unit is in pixels (XLIFF 1.2)
    assert _check(tmp_path, str(path), "--checks", "width", "--max-width", "10", out="narrow") == 0
    # the first unit keeps its own 40, the fourth its 12; the last has no limit in characters
    assert sorted(row["source_id"] for row in _issues(tmp_path, "narrow")) == [6, 10, 12]
    path.write_text(XLIFF.replace('maxwidth="40"', 'maxwidth="wide"'), encoding="utf-8")
    assert _check(tmp_path, str(path), "--checks", "width", out="bad") == 2


PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

msgid "Open"
msgstr "Abrir"

msgctxt "menu"
msgid "Open"
msgstr "Abre"

msgid "Open."
msgstr "Abre."

msgid "unable to lock %s"
msgstr "no se puede desbloquear %s"

msgid "unable to unlock %s"
msgstr "no se puede desbloquear %s"

msgid "Quit"
msgstr "Salir"

msgid "quit"
msgstr "Salir"

msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d plik"
msgstr[1] "%d pliki"
msgstr[2] "%d plików"
"""


def test_consistency_both_ways_reports_each_group_once(tmp_path):
    path = tmp_path / "app.po"
    path.write_text(PO, encoding="utf-8")
    assert _check(tmp_path, str(path)) == 0  # not among the defaults
    assert not any(r["relation"] == "consistency" for r in _issues(tmp_path))
    assert _check(tmp_path, str(path), "--checks", "consistency", "--relation-option", "consistency.target=true",
                  out="both") == 0
    found = {row["group"]: row for row in _issues(tmp_path, "both")}
    assert set(found) == {"consistency.source", "consistency.target"}
    # "Open" and "Open." are one source (final marks aside), "menu|Open" another context
    assert found["consistency.source"]["evidence"]["lines"] == [6, 13]
    assert found["consistency.source"]["evidence"]["differing"] == ["Abrir", "Abre."]
    # dpkg's real mistake: lock and unlock given one translation
    assert found["consistency.target"]["evidence"]["lines"] == [16, 19]
    assert len(_issues(tmp_path, "both")) == 2  # "Quit" and "quit" one source; a unit's plural forms differ by right


def test_glossary_and_do_not_translate(tmp_path):
    glossary = tmp_path / "glossary.csv"
    glossary.write_text("source,target\nfile,archivo\nsave,guardar\n", encoding="utf-8")
    keep = tmp_path / "keep.txt"
    keep.write_text("# product terms\nprint to file\nGitHub\n", encoding="utf-8")
    pairs = [("The files were saved", "Los archivos se guardaron"),  # archivo and guardar by their lemmas
             ("The file was saved to disk", "El fichero se guardó en el disco"),  # fichero: not the term
             ("Use the print to file option to keep a copy", "Use la opción print to file para guardar una copia"),
             ("Open GitHub to see the file", "Abre Github para ver el archivo")]
    source = _jsonl(tmp_path / "terms.jsonl", pairs)
    assert _check(tmp_path, source, "--checks", "language", out="plain") == 0
    assert [r["group"] for r in _issues(tmp_path, "plain")] == ["language.copied"]  # print to file, line 3
    assert _check(tmp_path, source, "--checks", "language", "--glossary", str(glossary), "--do-not-translate",
                  str(keep)) == 0
    found = sorted((r["source_id"], r["group"], r["severity"]) for r in _issues(tmp_path))
    assert found == [(2, "terms.glossary", "major"), (4, "terms.do_not_translate", "major")]
    rows = {r["source_id"]: r["evidence"]["terms"] for r in _issues(tmp_path)}
    assert rows[2] == [{"source": "file", "target": "archivo", "glossary_line": 2}]  # guardó is guardar's
    assert rows[4] == ["GitHub"]


@pytest.mark.parametrize("content, message", [
    ("file\n", "line 1 is not a source term and a target term"),
    ("# nothing\n", "no term in it"),
    ("file\tarchivo\x00\n", "NUL"),
])
def test_bad_glossary_is_a_one_line_error(tmp_path, capsys, content, message):
    glossary = tmp_path / "g.tsv"
    glossary.write_text(content, encoding="utf-8")
    source = _jsonl(tmp_path / "t.jsonl", [("Open the file", "Abre el archivo")])
    assert _check(tmp_path, source, "--glossary", str(glossary)) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert _check(tmp_path, source, "--do-not-translate", str(tmp_path / "none.txt")) == 2
    assert "does not exist" in capsys.readouterr().err


def test_sarif_of_the_gate_checks_validates(tmp_path):
    import jsonschema

    assert _check(tmp_path, _jsonl(tmp_path / "bad.jsonl", FAULTY), "--checks", GATE, "--report", "sarif",
                  lang="de") == 0
    log = json.loads((tmp_path / "out" / "report.sarif").read_text())
    schema = json.loads((Path(__file__).parent / "data" / "sarif" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(log)
    results = log["runs"][0]["results"]
    assert sorted(r["ruleId"] for r in results) == sorted(g for _, _, g, _ in FAULTY)
    assert {r["level"] for r in results} == {"note", "warning"}
