"""Language identification on short sentences: lingua-language-detector against py3langid.

Short sentences (the first 8 words) in es, ca (Apertium eng-spa / eng-cat outputs of news.txt
lines 20-59), en (those news lines) and pt, fr (written here), each identifier restricted to the
same five languages; prints accuracy per language and the time per sentence. Needs Apertium.

    python3 benchmarks/bench_langid.py
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PT = """O governo anunciou novas medidas para a economia.
A empresa fechou o ano com lucro recorde.
Os deputados aprovaram a proposta na terça-feira.
O presidente viajou para Lisboa esta semana.
As ações caíram depois do relatório trimestral.
A cidade vai construir uma nova ponte sobre o rio.
O banco central manteve a taxa de juros.
Milhares de pessoas protestaram no centro da cidade.
O ministro disse que não vai renunciar.
A inflação subiu mais do que o esperado.
Os professores entraram em greve na segunda-feira.
O tribunal rejeitou o recurso da defesa.
A seleção venceu o jogo por dois a zero.
O hospital recebeu novos equipamentos.
Os preços da gasolina voltaram a subir.
A polícia prendeu três suspeitos ontem à noite.
O novo aeroporto deve abrir no próximo ano.
As exportações cresceram no último trimestre.
A câmara municipal aprovou o orçamento.
Os cientistas descobriram uma nova espécie de peixe.""".splitlines()
FR = """Le gouvernement a annoncé de nouvelles mesures.
L'entreprise a terminé l'année avec un bénéfice record.
Les députés ont approuvé la proposition mardi.
Le président s'est rendu à Berlin cette semaine.
Les actions ont chuté après le rapport trimestriel.
La ville va construire un nouveau pont sur le fleuve.
La banque centrale a maintenu son taux directeur.
Des milliers de personnes ont manifesté dans le centre.
Le ministre a dit qu'il ne démissionnerait pas.
L'inflation a augmenté plus que prévu.
Les enseignants se sont mis en grève lundi.
Le tribunal a rejeté l'appel de la défense.
L'équipe a gagné le match deux à zéro.
L'hôpital a reçu de nouveaux équipements.
Les prix de l'essence ont encore augmenté.
La police a arrêté trois suspects hier soir.
Le nouvel aéroport doit ouvrir l'année prochaine.
Les exportations ont progressé au dernier trimestre.
Le conseil municipal a adopté le budget.
Les scientifiques ont découvert une nouvelle espèce.""".splitlines()
LANGS = ("es", "en", "ca", "pt", "fr")


def short(line: str, words: int = 8) -> str:
    return " ".join(line.split()[:words])


def samples() -> list[tuple[str, str]]:
    lines = (ROOT / "datasets" / "news.txt").read_text(encoding="utf-8").splitlines()[19:59]
    out = [("en", short(x)) for x in lines]
    for lang, pair in (("es", "eng-spa"), ("ca", "eng-cat")):
        done = subprocess.run(["apertium", "-u", pair], input="\n".join(lines) + "\n", text=True,
                              capture_output=True, check=True).stdout.splitlines()
        out += [(lang, short(x)) for x in done]
    return out + [("pt", short(x)) for x in PT] + [("fr", short(x)) for x in FR]


def lingua_identify():
    from lingua import IsoCode639_1, LanguageDetectorBuilder

    codes = [getattr(IsoCode639_1, c.upper()) for c in LANGS]
    detector = LanguageDetectorBuilder.from_iso_codes_639_1(*codes).build()

    def identify(text: str) -> str:
        lang = detector.detect_language_of(text)
        return lang.iso_code_639_1.name.lower() if lang else "?"
    return identify


def langid_identify():
    import py3langid

    py3langid.set_languages(list(LANGS))
    return lambda text: py3langid.classify(text)[0]


def main() -> None:
    data = samples()
    for name, make in (("lingua-language-detector", lingua_identify), ("py3langid", langid_identify)):
        start = time.perf_counter()
        identify = make()
        load = time.perf_counter() - start
        start = time.perf_counter()
        got = [identify(text) for _, text in data]
        each = (time.perf_counter() - start) / len(data) * 1000
        per = {lang: (sum(1 for (l, _), g in zip(data, got) if l == lang and g == lang),
                      sum(1 for l, _ in data if l == lang)) for lang in LANGS}
        right = sum(r for r, _ in per.values())
        print(f"{name}: {right}/{len(data)} = {right / len(data):.1%} right; "
              + ", ".join(f"{l} {r}/{n}" for l, (r, n) in per.items())
              + f"; load {load:.2f} s, {each:.2f} ms a sentence")
        wrong = [(l, g, t) for (l, t), g in zip(data, got) if l != g]
        for l, g, t in wrong[:6]:
            print(f"    {l} -> {g}: {t}")


if __name__ == "__main__":
    main()
