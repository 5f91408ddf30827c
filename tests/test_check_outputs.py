"""``sit check`` on a program's messages (issue 48): software text is no prose and format
specifiers are compared by argument (sit.textcheck.software); suppressions in ``.sitignore``
written by ``sit mark`` let ``--fail-on`` pass and survive re-ordering the file; every finding has
a severity and ``--fail-on`` takes one; SARIF validates against the SARIF 2.1.0 schema (committed
in tests/data/sarif with its licence), one result per finding at its line; CSV has a row each."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from sit.cli import main
from sit.textcheck.software import lost_tokens, prose, usage_synopsis

#: messages of installed catalogues (bash, wget, dpkg, coreutils in Spanish), translated as their
#: translators did: none is a bug
CLEAN = [
    ("       --bind-address=ADDRESS      bind to ADDRESS (hostname or IP) on local host\n",
     "       --bind-address=DIRECCIÓN    enlaza a DIRECCIÓN (nombre de equipo o IP) en el equipo local\n"),
    ("wait [-fn] [-p var] [id ...]", "wait [-fn] [-p var] [id ...]"),
    ("register_alloc: alloc table is full with FIND_ALLOC?\n", "register_alloc: ¿la tabla alloc está llena con FIND_ALLOC?\n"),
    ("  Package %s is not installed.\n", "  El paquete `%s' no está instalado.\n"),
    ("file '%s' is corrupt; out of range integer in %s", "el fichero `%.250s' está dañado - entero fuera de rango en %s"),
    ("Copyright (C) 2022 Free Software Foundation, Inc.", "Copyright (C) 2022 Free Software Foundation, Inc."),
    ("%s: %s: Invalid restriction %s,\n    use [unix|vms|windows],[lowercase|uppercase].\n",
     "%s: %s: restricción %s inválida,\n    use [unix|vms|windows],[lowercase|uppercase].\n"),
    ("%1$s has %2$d files", "%2$d archivos tiene %1$s"),
    ("{count, plural, one {# file left} other {# files left}}", "{count, plural, one {queda # archivo} other {quedan # archivos}}"),
    ("General help using GNU software: <http://www.gnu.org/gethelp/>\n",
     "Ayuda general sobre el uso de software de GNU: <https://www.gnu.org/gethelp/>\n"),
    ("       --random-wait               wait from 0.5*WAIT...1.5*WAIT secs between retrievals\n",
     "       --random-wait               espera entre 0.5*WAIT...1.5*WAIT segs entre descargas.\n"),
    ("(pipe)", "(pipe)"),
    ("%s: descend into directory %s? ", "%s: ¿descender al directorio %s? (s/n) "),
    # coreutils: the values an option takes, kept; an option's default; an example file name after
    # "--"; the argument a prompt asks about moved after its question mark with the answers
    ("      --invalid=MODE   failure mode for invalid numbers: MODE can be:\n"
     "                         abort (default), fail, warn, ignore\n",
     "      --invalid=MODO   modo de fallo para los números inválidos: MODO puede\n"
     "                         ser: abort (predeterminado), fail, warn, ignore\n"),
    ("      --time=WORD       show time as WORD instead of modification time:\n"
     "                          atime, access, use, ctime or status\n",
     "      --time=PALABRA     muestra la fecha/hora como PALABRA en lugar de la\n"
     "                           fecha de modificación:\n                           atime, access, use, ctime o status\n"),
    ("  -s, --sleep-interval=N   with -f, sleep for approximately N seconds\n"
     "                             (default 1.0) between iterations;\n",
     "  -s, --sleep-interval=N   con -f, espera aproximadamente N segundos entre\n"
     "                             iteraciones (por omisión 1.0);\n"),
    ("To remove a file whose name starts with a '-', for example '-foo',\nuse one of these commands:\n  %s -- -foo\n",
     "Para borrar un fichero cuyo nombre comience con un '-', por ejemplo '-fu',\n"
     "utilice una de las siguientes órdenes:\n  %s -- -fu\n"),
    ("%s: replace %s, overriding mode %04lo (%s)? ", "%s: ¿reemplazar %s, sustituyendo el modo %04lo? (%s) (s/n) "),
    # gnupg2 (German, in Spanish words here): %%0A is a percent sign and "0A", no specifier; a hexadecimal
    # conversion's case; a specifier in backticks; a number after an abbreviation's period
    ("A passphrase should contain at least %u digits or%%0Aspecial characters.",
     "Una frase de paso debería contener al menos %u dígitos o caracteres especiales."),
    ("CRC error; %06lX - %06lX\n", "Error de CRC; %06lx - %06lx\n"),
    ("error renaming '%s' to '%s': %s\n", "error al renombrar `%s` a `%s': %s\n"),
    ("Unknown-11", "Desc.11"),
    # a warning's exclamation mark toned down to a period (gnupg2's German): the translator's tone
    ("Warning: we have yet to see a message signed using this key and user id!",
     "Aviso: todavía no hemos visto un mensaje firmado con esta clave e identificador de usuario."),
    ("key is not flagged as insecure - can't use it with the faked RNG!",
     "clave no marcada como insegura - no puede usarse con el pseudo RNG"),
    # gnupg2: a note to translators held as a message; "%%-expand" (no option); a final period left out
    ("22 translator: see certreg-ui.c:gpgsm_gencertreq_tty", "28"),
    ("WARNING: unable to %%-expand notation (too large).  Using unexpanded.",
     "AVISO: no se puede %%-expandir la notación (demasiado grande). Se usa sin expandir."),
    ("It is NOT certain that the key belongs to the person named\nin the user ID.  If you *really* know what you "
     "are doing,\nyou may answer the next question with yes.\n",
     "No es seguro que la clave pertenezca a la persona nombrada\nen el ID de usuario.  Si *realmente* sabe lo que "
     "hace,\npuede contestar sí a la siguiente pregunta\n"),
    # a prompt's mark as the target language writes prompts; a date's format written as the target's dates
    ("Your selection? ", "Su elección: "),
    (" %a %b %e %H:%M:%S %Z %Y", " %A, %d de %B de %Y, %H:%M:%S %Z"),
    # shadow: a standard's number stands as the standard writes it
    ("and not start with a dash (as defined by IEEE Std 1003.1-2001).",
     "y no empezar con un guion (según define IEEE Std 1003.1-2001)."),
    # man-db: a legend of one-letter keys
    ("STRING indicates which preprocessors to run:\ne - [n]eqn, p - pic, t - tbl,\ng - grap, r - refer, v - vgrind",
     "CADENA DE TEXTO indica qué preprocesadores ejecutar:\ne - [n]eqn, p - pic, t - tbl,\ng - grap, r - refer, v - vgrind"),
    # glib: a month as Spanish abbreviates it (CLDR); git: a synopsis with <metavariables>, wrapped
    ("May", "May"),
    ("git remote add [<options>] <name> <url>", "git remote add [<options>] <name> <url>"),
    ("git remote remove <name>", "git remote remove <name>"),
    ("git stash list [<options>]\n          [--all] [<pathspec>...]", "git stash list [<options>]\n          [--all] [<pathspec>...]"),
    # a term the file's translated messages keep (twice or more) is kept by right where it stands alone
    # python-apt: a product's version is no decimal number; appstream: a code term in backticks kept in
    # the target's quotation marks
    ("Cdrom with Ubuntu 10.04 'Lucid Lynx'", "CD-ROM con Ubuntu 10.04 «Lucid Lynx»"),
    ("Debian 3.1 'Sarge'", "Debian 3.1 «Sarge»"),
    ("An `extends` tag is specified", "Se especifica una etiqueta «extends»"),
    ("Remote", "Remote"), ("Delete the remote branch", "Borra la rama remote"),
    ("The remote is gone", "El remote ya no está"),
]
#: the same messages with a fault each, and the group it must set off
FAULTY = [
    ("  Package %s is not installed.\n", "  El paquete no está instalado.\n", "passthrough.missing"),
    ("%s has %d files", "%d tiene %s archivos", "passthrough.changed"),
    ("The backup suffix is '~', unless set with --suffix or SIMPLE_BACKUP_SUFFIX.",
     "El sufijo de respaldo es '~', a menos que se especifique con -suffix o con SIMPLE_BACKUP_SUFFIX.",
     "passthrough.missing"),
    ("Remove the file and try again later.", "Remove the file and try again later.", "language.untranslated"),
    ("Wait 30 seconds before the next retry.", "Espere 60 segundos antes del siguiente intento.", "numbers.missing"),
    # a lone word that says something of the code before it is a sentence's, not a term kept
    ("fork() failed\n", "fork() failed\n", "language.untranslated"),  # fake_fork(): a developer's, kept
    ("%s: -K requires KEY=VALUE\n", "%s: -K requires KEY=VALUE\n", "language.untranslated"),
    # a format specifier for an argument the program does not pass
    ("Cannot open the file.", "No se puede abrir el fichero %s.", "passthrough.added"),
    # Spanish hunspell knows "removed" (remover's vosotros imperative), English writes it far more
    ("Removed %s.\n", "Removed %s.\n", "language.untranslated"),
    ("Copied {count} files", "Se copiaron {count} ficheros a {folder}", "passthrough.added"),
    ("Wait 1.5 seconds", "Espere 1.5 segundos", "numbers.format"),
    ("An `extends` tag is specified", "Se especifica una etiqueta «extensiones»", "passthrough.missing"),
]


def test_software_text_is_no_prose_and_specifiers_compare_by_argument():
    assert usage_synopsis("wait [-fn] [-p var] [id ...]") and usage_synopsis("for NAME [in WORDS ... ] ; do COMMANDS; done")
    assert not usage_synopsis("Save the file") and not usage_synopsis("the file is not here")
    # an option, an identifier, a path, a quoted term and a word the text writes in capitals too are blanked
    words = prose("Use --bind-address with save_bash_input, /usr/sbin and `cd' for until loops (UNTIL).").split()
    assert words == ["Use", "with", ",", "and", "for", "loops", "(", ")."]
    assert lost_tokens("%1$s has %2$d", "%2$d tiene %1$s") == []
    assert [(t.token, t.what, t.found) for t in lost_tokens("%s has %d", "%d tiene %s")] == [
        ("%s", "changed", "%d"), ("%d", "changed", "%s")]
    assert [t.token for t in lost_tokens("{n, plural, one {# in {dir}} other {#}}", "{n, plural, one {# en} other {#}}")] \
        == ["{dir}"]


def _jsonl(path: Path, pairs) -> str:
    path.write_text("".join(json.dumps({"source": s, "translation": t}) + "\n" for s, t, *_ in pairs), encoding="utf-8")
    return str(path)


#: the checks issue 48 made read a program's messages (spelling and typography, issue 45, are not yet)
CHECKS = "numbers,passthrough,language,length,punctuation"


def _check(tmp_path, source, *args, out="out"):
    return main(["check", "--source", source, "--target-lang", "es", "--out", str(tmp_path / out), "--force",
                 "--checks", CHECKS, "--cache-dir", str(tmp_path / "cache"), "--ignore-file", str(tmp_path / ".sitignore"),
                 *args])


def _issues(tmp_path, out="out"):
    return [json.loads(line) for line in (tmp_path / out / "issues.jsonl").read_text().splitlines()]


def test_catalogue_messages_are_clean_and_faults_are_found_with_a_severity(tmp_path):
    assert _check(tmp_path, _jsonl(tmp_path / "clean.jsonl", CLEAN), "--fail-on", "any") == 0
    assert _check(tmp_path, _jsonl(tmp_path / "bad.jsonl", FAULTY), out="bad") == 0
    found = {(row["source_id"], row["group"]): row for row in _issues(tmp_path, "bad")}
    for line, (_, _, group) in enumerate(FAULTY, start=1):
        assert (line, group) in found, (line, group, sorted(found))
    assert found[(1, "passthrough.missing")]["severity"] == "critical"  # a format specifier lost
    assert found[(2, "passthrough.changed")]["category"] == "Accuracy/Mistranslation"
    assert found[(8, "passthrough.added")]["severity"] == "critical"
    assert all(row["severity"] in ("minor", "major", "critical") for row in found.values())


def test_suppressions_written_by_mark_let_fail_on_pass_and_survive_reordering(tmp_path, capsys):
    source = _jsonl(tmp_path / "bad.jsonl", FAULTY)
    assert _check(tmp_path, source, "--fail-on", "major") == 7
    clusters = [json.loads(line)["cluster_id"] for line in (tmp_path / "out" / "clusters.jsonl").read_text().splitlines()]
    assert main(["mark", str(tmp_path / "out"), *clusters, "--as", "not_bug",
                 "--ignore-file", str(tmp_path / ".sitignore")]) == 0
    assert len((tmp_path / ".sitignore").read_text().splitlines()) == 1 + len(_issues(tmp_path))
    reordered = _jsonl(tmp_path / "reordered.jsonl", list(reversed(FAULTY)))
    assert _check(tmp_path, reordered, "--fail-on", "any", out="again") == 0
    assert "suppressed" in capsys.readouterr().out
    assert _issues(tmp_path, "again") == []
    # a bug mark takes the suppressions out again
    assert main(["mark", str(tmp_path / "out"), clusters[0], "--as", "bug", "--ignore-file", str(tmp_path / ".sitignore")]) == 0
    assert _check(tmp_path, reordered, "--fail-on", "any", out="third") == 7


def test_sarif_validates_against_the_schema_with_one_result_per_finding(tmp_path):
    import jsonschema
    source = _jsonl(tmp_path / "bad.jsonl", FAULTY)
    assert _check(tmp_path, source, "--report", "text,sarif,csv") == 0
    log = json.loads((tmp_path / "out" / "report.sarif").read_text())
    schema = json.loads((Path(__file__).parent / "data" / "sarif" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(log)
    issues = _issues(tmp_path)
    results = log["runs"][0]["results"]
    assert len(results) == len(issues) >= len(FAULTY)
    assert sorted(r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results) == \
        sorted(row["source_id"] for row in issues)
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == \
        {Path(source).resolve().as_uri()}
    broken = dict(log, version="2.0")  # the schema check can fail
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(schema).validate(broken)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "out" / "report.csv").read_text())))
    assert sorted(int(r["line"]) for r in rows) == sorted(row["source_id"] for row in issues)
    assert {r["severity"] for r in rows} <= {"minor", "major", "critical"}


def test_compare_leaves_out_suppressed_findings_from_fail_on_and_report(tmp_path):
    fixed = [(s, t) for s, t in CLEAN[:4]]
    path = tmp_path / "messages.jsonl"
    _jsonl(path, fixed)
    assert _check(tmp_path, str(path), out="base") == 0
    _jsonl(path, [(s, FAULTY[0][1] if n == 3 else t) for n, (s, t) in enumerate(fixed)])  # a specifier lost
    assert _check(tmp_path, str(path), out="new") == 0
    compare = ["compare", str(tmp_path / "base"), str(tmp_path / "new"), "--fail-on", "new", "-o",
               str(tmp_path / "cmp.txt"), "--ignore-file", str(tmp_path / ".sitignore")]
    assert main(compare) == 7
    assert FAULTY[0][1].strip() in (tmp_path / "cmp.txt").read_text()
    clusters = [json.loads(line)["cluster_id"] for line in (tmp_path / "new" / "clusters.jsonl").read_text().splitlines()]
    assert main(["mark", str(tmp_path / "new"), *clusters, "--as", "not_bug",
                 "--ignore-file", str(tmp_path / ".sitignore")]) == 0
    assert main(compare) == 0
    # the report leaves the suppressed finding out too, as sit check's run directory does
    assert FAULTY[0][1].strip() not in (tmp_path / "cmp.txt").read_text()


PLURAL = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "%s: Wrote only %lu of %lu byte"
msgid_plural "%s: Wrote only %lu of %lu bytes"
msgstr[0] "%s: Nur %lu von einem Byte geschrieben"
msgstr[1] "%s: Nur %lu von %lu Bytes geschrieben"

msgid "%s: File shrank by %s byte"
msgid_plural "%s: File shrank by %s bytes"
msgstr[0] "%s: Datei ist um ein Byte geschrumpft"
msgstr[1] "%s: Datei ist um Bytes geschrumpft"

msgid "one file removed"
msgid_plural "%d files removed"
msgstr[0] "%d Datei entfernt"
msgstr[1] "%d Dateien entfernt"
"""


def test_plural_forms_are_checked_form_by_form(tmp_path):
    pytest.importorskip("translate.storage.factory")
    po = tmp_path / "de.po"
    po.write_text(PLURAL, encoding="utf-8")
    run = ["check", "--source", str(po), "--cache-dir", str(tmp_path / "cache"), "--ignore-file", "", "--force",
           "--checks", CHECKS]
    assert main([*run, "--target-lang", "de", "--out", str(tmp_path / "de")]) == 0
    rows = [json.loads(line) for line in (tmp_path / "de" / "issues.jsonl").read_text().splitlines()]
    # German uses msgstr[0] for 1 alone: its count may go ("ein Byte"); the plural form's may not
    assert [(r["group"], r["original"]) for r in rows] == [("passthrough.missing", "%s: File shrank by %s bytes")]
    # French's "one" holds 0 and 1 too: there msgstr[0] must keep its counts; in any language it may
    # write the count its msgid leaves out ("%d Datei" for "one file": Russian's "one" holds 21 too)
    assert main([*run, "--target-lang", "fr", "--out", str(tmp_path / "fr")]) == 0
    rows = [json.loads(line) for line in (tmp_path / "fr" / "issues.jsonl").read_text().splitlines()]
    assert {r["original"] for r in rows if r["group"] == "passthrough.missing"} == {
        "%s: Wrote only %lu of %lu byte", "%s: File shrank by %s byte", "%s: File shrank by %s bytes"}


def test_sarif_of_a_sit_run_validates_with_a_result_per_finding(tmp_path, capsys):
    import jsonschema
    from sample_runs import sample_issues, write_sample_run

    run = write_sample_run(tmp_path / "run", sample_issues(4, 2))
    out = tmp_path / "run.sarif"
    assert main(["report", str(run), "-f", "sarif", "-o", str(out)]) == 0
    log = json.loads(out.read_text())
    schema = json.loads((Path(__file__).parent / "data" / "sarif" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(log)
    issues = [json.loads(line) for line in (run / "issues.jsonl").read_text().splitlines()]
    results = log["runs"][0]["results"]
    assert [r["properties"]["issue_id"] for r in results] == [i["issue_id"] for i in issues]
    assert all(r["level"] == "warning" for r in results)  # a metamorphic relation's finding: major


def test_a_message_key_has_no_length_ratio(tmp_path):
    """gnupg2's msgids that are keys, not text (``pinentry.qualitybar.tooltip``, ``|pinentry-label|PIN:``):
    their translations' lengths say nothing; the same long translation of a short text still does."""
    long = "La calidad de la frase de paso que ha introducido arriba. Pregunte a su administrador por los criterios."
    pairs = [(f"File {n} was copied to the backup folder", f"El fichero {n} se copió a la carpeta de copias" + " nueva" * (n % 4))
             for n in range(40)]
    pairs += [("pinentry.qualitybar.tooltip", long), ("|pinentry-label|PIN code:", long), ("The quality bar shown", long + " " + long),
              ("The quality of the passphrase you entered above, as your administrator asks", "Calidad")]
    assert _check(tmp_path, _jsonl(tmp_path / "keys.jsonl", pairs)) == 0
    # in sit check a translation far longer is no finding (a long text under a short key, a line the
    # translator added: gnupg2); far shorter still is; sit run reports both (length.longer)
    assert [row["source_id"] for row in _issues(tmp_path) if row["group"] == "length.ratio"] == [44]
    assert _check(tmp_path, _jsonl(tmp_path / "keys.jsonl", pairs), "--relation-option", "length.longer=true",
                  out="longer") == 0
    assert {row["source_id"] for row in _issues(tmp_path, "longer") if row["group"] == "length.ratio"} == {43, 44}


def test_a_message_of_one_word_of_the_target_language_is_no_untranslated_one(tmp_path):
    """German keeps ``Distribution`` and ``Operator`` (its hunspell dictionary's words as written),
    ``Feb`` and ``Tamil`` (CLDR's names): no finding; ``Warning`` returned is still untranslated."""
    from sit.textcheck.spelling import find_dictionary

    if find_dictionary("de") is None:
        pytest.skip("needs the German hunspell dictionary (apt-get install hunspell-de-de)")
    pytest.importorskip("spylls")
    words = ["Distribution", "Operator", "Feb", "Tamil", "Warning", "Unknown"]
    assert main(["check", "--source", _jsonl(tmp_path / "de.jsonl", [(w, w) for w in words]), "--target-lang", "de",
                 "--out", str(tmp_path / "out"), "--checks", CHECKS, "--cache-dir", str(tmp_path / "cache"),
                 "--ignore-file", ""]) == 0
    assert [(r["source_id"], r["group"]) for r in _issues(tmp_path)] == [(5, "language.untranslated"),
                                                                          (6, "language.untranslated")]


def test_a_message_returned_whose_words_are_the_targets_too_is_untranslated_by_its_language(tmp_path):
    """tar's ``Unaligned block (%lu byte) in archive`` returned in German: ``Block``, ``Byte`` and
    ``Archive`` are German words too, but the identifier reads the line as English; a name kept
    (``Free Software Foundation``) is none."""
    pairs = [("Unaligned block (%lu byte) in archive", "Unaligned block (%lu byte) in archive"),
             ("Copyright (C) 2022 Free Software Foundation, Inc.", "Copyright (C) 2022 Free Software Foundation, Inc.")]
    assert main(["check", "--source", _jsonl(tmp_path / "de.jsonl", pairs), "--target-lang", "de",
                 "--out", str(tmp_path / "out"), "--checks", CHECKS, "--cache-dir", str(tmp_path / "cache"),
                 "--ignore-file", ""]) == 0
    assert [(r["source_id"], r["group"]) for r in _issues(tmp_path)] == [(1, "language.untranslated")]
