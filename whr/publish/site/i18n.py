"""The site in the players' languages: English, Chinese (simplified), Russian, Japanese and
Korean.

The pages are rendered once, in English (what a reader without script, a text browser or a
crawler reads); every text of the templates, of the page families and of the page script is a
message of the catalogs in ``locale/`` (a ``.pot`` extracted by Babel from the templates, the
Python modules and ``static/site.js``; one ``.po`` per language). At publish time each
language's catalog becomes one small script, ``static/lang-<code>.js``, with the country names
of that language (ISO 3166, from pycountry's translations); the page script loads the reader's
language, draws its own texts from it and swaps the page's English texts. So the languages
cost a few kilobytes per site, not a copy of each page (docs/site.md, *Languages*).

How a page's English text finds its translation (the page script's ``translate``): a text node
or an attribute (``placeholder``, ``aria-label``, ``title``) whose text is a message is
replaced; a message with values (``%(day)s``) matches as a pattern, and each value is itself
translated when it is a message (a country, "Renju") and written as a date of the language when
it is a date; an element marked ``data-i18n`` is matched on its HTML: a message whose values are links or
emphasis, or a paragraph's message with its links and emphasis inside (a ``{% trans %}`` block,
written as the browser writes HTML back: ``<a href="x">``), so that a translator sees the whole
sentence. Native names carry their own ``lang`` and are never translated; what stays English
(the manifest's keys and values on the about page) is marked ``lang=en``.

Messages change with ``python -m whr.publish.site.i18n``: it extracts the ``.pot`` again and
merges it into each ``.po`` (new messages empty, to be translated); ``tests/publish/
test_i18n.py`` holds every catalog complete and the ``.pot`` equal to what extraction finds.
"""

from __future__ import annotations

import gettext as gettext_module
import io
import json
import re
from functools import cache
from pathlib import Path

HERE = Path(__file__).parent
LOCALE = HERE / "locale"
POT = LOCALE / "messages.pot"
LANGUAGES = {"en": "English", "zh": "中文", "ru": "Русский", "ja": "日本語", "ko": "한국어"}
"""The site's languages (code: its name in itself, as the language switch shows it)."""
HTML_LANG = {"en": "en", "zh": "zh-Hans", "ru": "ru", "ja": "ja", "ko": "ko"}
"""Each language's ``lang`` attribute (BCP 47): Chinese is simplified Chinese."""
COUNTRY_LOCALE = {"zh": "zh_CN", "ru": "ru", "ja": "ja", "ko": "ko"}
"""pycountry's locale of each language's country names."""
KEYWORDS = {"_": None, "gettext": None, "N_": None, "tr": None, "ptr": ((1, "c"), 2)}
"""The message functions: ``_`` in the templates and Python, ``gettext`` (what a template's
``{% trans %}`` block calls), ``N_`` (a message, not yet translated), ``tr`` in the page script
and ``ptr(context, message)`` where one English word has two meanings ("Place": a venue, or a
place in the standings)."""
CONTEXT = "\x04"
"""Between a message's context and its text in the catalogs' keys (gettext's convention)."""


def key(message: str, context: str | None) -> str:
    """A message's key in the catalogs: its text, after its context if it has one."""
    return f"{context}{CONTEXT}{message}" if context else message


PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def N_(message: str) -> str:
    """``message``, marked for extraction: it is translated where it is shown."""
    return message


def _(message: str, **values: object) -> str:
    """``message`` in English with ``values`` put in (``%(name)s``; ``%%`` is a ``%``, as in
    the templates, where Jinja2 formats every message): the pages' text."""
    return message % values


GAMES = (N_("Renju"), N_("Gomoku"))
"""The games a site can be of (``Site.game``), as messages."""


# --- catalogs -----------------------------------------------------------------------------------


def extract() -> list[str]:
    """The messages of the site, in the order found: the templates, the page families, the
    page script, and the meanings of the reasons a game is not rated."""
    from babel.messages.extract import extract_from_dir

    method_map = [
        ("templates/**.html", "jinja2"),
        ("static/site.js", "javascript"),
        ("*.py", "python"),
    ]
    options = {"templates/**.html": {"trimmed": "false", "newstyle_gettext": "true"}}
    found: dict[str, None] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
        HERE, method_map, options_map=options, keywords=KEYWORDS
    ):
        if isinstance(message, str) and message:
            found[key(message, context)] = None
    # what each reason for leaving a game out means (the not-rated page shows it): the rules'
    # own texts, kept where the rules are
    from whr.rules.reasons import REASONS

    for meaning in REASONS.values():
        found[meaning] = None
    return list(found)


def pot_text(messages: list[str]) -> str:
    """The ``.pot`` of ``messages`` (keys, :func:`key`), sorted, without places or dates."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(project="rif-rating site", fuzzy=False)
    for k in messages:
        context, _sep, m = k.rpartition(CONTEXT)
        flags = ["python-format"] if PLACEHOLDER.search(m) else []
        catalog.add(m, flags=flags, context=context or None)
    out = io.BytesIO()
    write_po(out, catalog, omit_header=False, no_location=True, sort_output=True, width=0)
    return _undated(out.getvalue().decode())


def _undated(po_text: str) -> str:
    """A catalog's text without the header's dates, which change on each extraction."""
    return re.sub(r'"(POT-Creation-Date|PO-Revision-Date): [^"]*\\n"\n', "", po_text)


@cache
def catalog(language: str) -> dict[str, str]:
    """The translations of ``language`` (message: translation), from its ``.po``."""
    from babel.messages.pofile import read_po

    with open(LOCALE / f"{language}.po", "rb") as f:
        po = read_po(f, locale=language)
    return {
        key(str(m.id), m.context): str(m.string) for m in po if m.id and m.string and not m.fuzzy
    }


@cache
def alpha2() -> dict[str, str]:
    """The list's country codes (RenjuNet's, IOC style: GER, LAT, TPE) -> ISO 3166 alpha-2,
    from the bundled ``country_codes.csv`` (the EGF reader's mapping, read the other way)."""
    import csv

    from whr.data import bundled

    with open(bundled("country_codes.csv"), encoding="utf-8", newline="") as f:
        rows = csv.reader(line for line in f if not line.startswith("#"))
        next(rows)  # alpha2,code,country
        out: dict[str, str] = {}
        for row in rows:
            out.setdefault(row[1], row[0])
    out["GBR"] = "GB"  # the file maps both GB and UK (EGD's spelling) to GBR
    return out


IOC_NAMES = {
    "TPE": {
        "zh": "中华台北",
        "ru": "Китайский Тайбэй",
        "ja": "チャイニーズタイペイ",
        "ko": "차이니스 타이베이",
    },
    "HKG": {"zh": "中国香港", "ru": "Гонконг (Китай)", "ja": "香港"},
    "MAC": {"zh": "中国澳门", "ru": "Макао (Китай)", "ja": "マカオ"},
    "RUS": {"ru": "Россия", "ja": "ロシア", "ko": "러시아"},
    "GBR": {"ru": "Великобритания", "ja": "イギリス"},
    "KOR": {"ko": "한국"},
}
"""Where the list names a country as sport does (the IOC's "Chinese Taipei") or the reader's
language says it shorter than ISO 3166's formal name ("Российская Федерация"): the name the
players know."""


def countries(language: str, codes: list[str], names: list[str]) -> dict[str, str]:
    """The names in ``language`` of the countries ``codes`` (the list's codes, English
    ``names``), from pycountry's ISO 3166 translations; a code ISO 3166 does not know (or a
    name it does not translate) is left out: the page keeps the English name."""
    import pycountry

    t = gettext_module.translation(
        "iso3166-1", pycountry.LOCALES_DIR, languages=[COUNTRY_LOCALE[language]]
    )
    iso = alpha2()
    out = {}
    for code, name in zip(codes, names, strict=True):
        if language in IOC_NAMES.get(code, {}):
            out[code] = IOC_NAMES[code][language]
            continue
        two = code if len(code) == 2 else iso.get(code)
        entry = pycountry.countries.get(alpha_2=two) if two else None
        if entry is None:
            continue
        english = getattr(entry, "common_name", None) or entry.name
        local = t.gettext(english)
        if local == english:
            local = t.gettext(entry.name)
        if local not in (english, entry.name) or name not in (english, entry.name):
            out[code] = local
    return out


SCRIPT_LANG = (
    (re.compile("[\u3040-\u30ff]"), "ja"),  # kana
    (re.compile("[\uac00-\ud7af\u1100-\u11ff]"), "ko"),  # hangul
)
HAN = re.compile("[\u4e00-\u9fff\u3400-\u4dbf]")
CYRILLIC = re.compile("[\u0400-\u04ff]")
LANG_OF_COUNTRY = {
    "JPN": "ja", "CHN": "zh-Hans", "TPE": "zh-Hant", "HKG": "zh-Hant", "MAC": "zh-Hant",
    "KOR": "ko", "RUS": "ru", "BLR": "be", "UKR": "uk", "BUL": "bg", "KAZ": "kk",
    "EST": "et", "LAT": "lv", "LTU": "lt", "CZE": "cs", "SVK": "sk", "POL": "pl",
    "HUN": "hu", "SWE": "sv", "FIN": "fi", "GER": "de", "AUT": "de", "FRA": "fr",
    "ITA": "it", "ESP": "es", "ROU": "ro", "TUR": "tr", "SRB": "sr", "CRO": "hr",
}  # fmt: skip
"""The language a native name of a player of the country is most likely in."""


def native_lang(native: str, country: str) -> str:
    """The ``lang`` of a native name: by its script (kana: Japanese, hangul: Korean), else by
    the player's country where its language writes in that script; "" when not known (no
    ``lang`` is better than a wrong one)."""
    for pattern, language in SCRIPT_LANG:
        if pattern.search(native):
            return language
    guess = LANG_OF_COUNTRY.get(country, "")
    if HAN.search(native):
        return guess if guess.startswith(("zh", "ja")) else "zh"
    if CYRILLIC.search(native):
        return guess if guess in ("ru", "be", "uk", "bg", "kk", "sr") else "ru"
    return (
        guess
        if guess and not guess.startswith(("zh", "ja", "ko", "ru", "be", "uk", "bg", "kk"))
        else ""
    )


def write_catalogs(static: Path, codes: list[str], names: list[str]) -> list[str]:
    """Write each language's catalog, ``static/lang-<code>.js`` (the messages, and the names of
    the countries ``codes`` with English ``names``), for the page script; returns the names."""
    written = []
    for language in LANGUAGES:
        if language == "en":
            continue
        local = countries(language, codes, names)
        by_name = {n: local[c] for c, n in zip(codes, names, strict=True) if c in local}
        # the messages as the pages show them: a % is %% in a message (Jinja2's formatting)
        shown = {k.replace("%%", "%"): v.replace("%%", "%") for k, v in catalog(language).items()}
        payload = {"m": shown, "c": local, "n": by_name}
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        text = text.replace("<", "\\u003c")  # never ends a script element
        name = f"lang-{language}.js"
        (static / name).write_text(f"(self.WHR=self.WHR||{{}}).i18n={text};\n", encoding="utf-8")
        written.append(name)
    return written


def update() -> None:
    """Extract the ``.pot`` again and merge it into each language's ``.po``."""
    from babel.messages.pofile import read_po, write_po

    text = pot_text(extract())
    POT.write_text(text, encoding="utf-8")
    for language in LANGUAGES:
        if language == "en":
            continue
        path = LOCALE / f"{language}.po"
        with open(POT, "rb") as f:
            template = read_po(f)
        if path.exists():
            with open(path, "rb") as f:
                po = read_po(f, locale=language)
            po.update(template, no_fuzzy_matching=True)
            po.obsolete.clear()
        else:
            po = template
            po.locale = language
        out = io.BytesIO()
        write_po(out, po, no_location=True, sort_output=True, width=0, omit_header=False)
        path.write_text(_undated(out.getvalue().decode()), encoding="utf-8")


if __name__ == "__main__":
    update()
