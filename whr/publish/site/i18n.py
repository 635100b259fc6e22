"""The site in the players' languages: English, Chinese (simplified), Russian, Japanese and
Korean.

The pages are rendered once, in English (what a reader without script, a text browser or a
crawler reads); every text of the templates, of the page families and of the page script's
declarations (``contract.py``) is a message of the catalogs in ``locale/`` (a ``.pot``
extracted by Babel, one gettext ``.po`` per language, keyed by the English text as gettext
does). At publish time each language's catalog becomes one small script,
``static/lang-<code>.js``: every message by its **message id** (:func:`message_id`), with the
names of the countries the data names in that language (ISO 3166, pycountry's translations).
The page script loads the reader's language and swaps each translated element by its id, so the
languages cost a few kilobytes per site, not a copy of each page (docs/site.md, *Languages*).

How a page carries its texts: a message is an element with its id, ``<span data-m=ID>`` (or
``data-m`` on the element whose whole content it is: ``<th data-m=ID>``), the English inside,
each value in a ``<var>`` (:func:`_`); an attribute holding a message has its id beside it
(``title="birth year" data-mt=ID``, :func:`attr`). A value that is itself translated says so:
a message (a span of its own), a country by its code (``data-c``), a date (``<time
datetime>``), a count (``<data value>``). The page script never reads the English to find a
translation; it looks the id up among the catalog's own entries only (a ``Map``). Native names
carry their own ``lang`` and are never translated.

Messages change with ``python -m whr.publish.site.i18n``: it extracts the ``.pot`` again and
merges it into each ``.po`` (new messages empty, to be translated);
``tests/publish/site/test_i18n.py`` holds every catalog complete and the ``.pot`` equal to what
extraction finds.
"""

from __future__ import annotations

import base64
import gettext as gettext_module
import hashlib
import io
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

HERE = Path(__file__).parent
LOCALE = HERE / "locale"
POT = LOCALE / "messages.pot"


@dataclass(frozen=True)
class Language:
    """A language of the site: its name in itself (the switch shows it), its ``lang`` (BCP 47)
    and pycountry's locale of its country names (none: English, the pages' own)."""

    name: str
    html: str
    countries: str | None


LANGUAGES = {
    "en": Language("English", "en", None),
    "zh": Language("中文", "zh-Hans", "zh_CN"),
    "ru": Language("Русский", "ru", "ru"),
    "ja": Language("日本語", "ja", "ja"),
    "ko": Language("한국어", "ko", "ko"),
}
"""The site's languages, by code (each but English with its ``locale/<code>.po``): the one
place a language is added."""
TRANSLATED = tuple(code for code in LANGUAGES if code != "en")
"""The languages with a catalog."""
KEYWORDS = {
    "_": None,
    "attr": (2,),
    "gettext": None,
    "N_": None,
    "T_": None,
    "TP_": ((1, "c"), 2),
}
"""The message functions: ``_`` (an element), ``attr`` (an attribute), ``gettext`` (what a
template's ``{% trans %}`` block calls), ``N_`` (a message, translated where it is shown),
``T_`` (a text of a declaration, ``contract.py``), and ``TP_`` with a context where one English
word has two meanings ("Place": a venue, or a place in the standings)."""
CONTEXT = "\x04"
"""Between a message's context and its text in the catalogs' keys (gettext's convention)."""


def key(message: str, context: str | None) -> str:
    """A message's key in the catalogs: its text, after its context if it has one."""
    return f"{context}{CONTEXT}{message}" if context else message


PLACEHOLDER = re.compile(r"%\((\w+)\)s")
MARKUP = re.compile(r"<[a-zA-Z/]")
"""A message holding a tag is HTML (a paragraph with its links); any other is text."""
IN_TAG = re.compile(r"<[^>]*%\(\w+\)s")


@cache
def message_id(message: str, context: str | None = None) -> str:
    """The id the pages and the catalogs give a message: 5 characters of the URL-safe base64
    of its key's sha256, the same in every build (an archived page meets the ids of today's
    catalogs); a reworded message gets a new id, which its catalogs must translate."""
    digest = hashlib.sha256(key(message, context).encode("utf-8")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:5]


def html_of(message: str) -> str:
    """A message's English as HTML, its values still ``%(name)s`` (``%%`` kept): a message with
    tags is HTML already, any other is escaped."""
    if MARKUP.search(message):
        if IN_TAG.search(message):
            raise ValueError(
                f"message {message!r}: a value inside a tag; make the link a value instead"
            )
        return message
    return str(escape(message))


def _var(m: re.Match[str]) -> str:
    return f"<var>{m.group(0)}</var>"


@cache
def _template(message: str) -> str:
    """The English HTML of ``message`` with each value's place in a ``<var>`` (for ``%``)."""
    return PLACEHOLDER.sub(_var, html_of(message))


MESSAGE = re.compile(r"<span data-m=([\w-]{5})>")


def into(tag: str, html: str, attributes: str = "") -> str:
    """``<tag attributes>html</tag>`` (the end tag left out for ``dd``, ``dt``, ``th``,
    ``td``), the tag carrying the message's id when ``html`` is one message's element (one
    element less, on tens of thousands of pages)."""
    m = MESSAGE.match(html)
    end = "" if tag in ("dd", "dt", "th", "td") else f"</{tag}>"
    if m and html.endswith("</span>") and _balanced(html[m.end() : -7]):
        return f"<{tag}{attributes} data-m={m.group(1)}>{html[m.end() : -7]}{end}"
    return f"<{tag}{attributes}>{html}{end}"


def _balanced(html: str) -> bool:
    """Whether every ``<span`` of ``html`` is closed within it (in order)."""
    depth = 0
    for m in re.finditer(r"<span\b|</span>", html):
        depth += 1 if m.group(0) == "<span" else -1
        if depth < 0:
            return False
    return depth == 0


def _fill(message: str, values: dict[str, object]) -> str:
    """The English HTML of ``message`` with ``values`` in their ``<var>`` (escaped unless
    markup; a value that is a message's element is the ``<var>``, with its id)."""
    names = set(PLACEHOLDER.findall(message))
    if names - values.keys():
        raise KeyError(f"message {message!r} needs the values {sorted(names - values.keys())}")
    safe = {k: v if isinstance(v, Markup) else escape(v) for k, v in values.items()}
    if not names:
        return _template(message).replace("%%", "%")
    html = str(_template(message) % safe)
    return VAR_MESSAGE.sub(_var_message, html) if "<var><span data-m=" in html else html


VAR_MESSAGE = re.compile(r"<var>(<span data-m=[\w-]{5}>.*?</span>)</var>", re.S)


def _var_message(m: re.Match[str]) -> str:
    inner = into("var", m.group(1))
    return inner if inner.startswith("<var data-m=") else m.group(0)


def inner(message: str, context: str | None = None, **values: object) -> Markup:
    """The content of an element whose whole content is ``message`` (its English, values in
    ``<var>``); the element carries :func:`mark` (one span less than :func:`_`)."""
    return Markup(_fill(message, values))


def mark(message: str, context: str | None = None) -> Markup:
    """``data-m=ID``: the attribute that makes the element it is on ``message``'s."""
    return Markup(f"data-m={message_id(message, context)}")


def _(message: str, **values: object) -> Markup:
    """``message`` as an element of the page: ``<span data-m=ID>English</span>``, its values
    in ``<var>`` (``%%`` is a ``%``, as in the templates): the page script swaps its content for
    the reader's language by the id."""
    return Markup(f"<span data-m={message_id(message)}>{_fill(message, values)}</span>")


ATTRIBUTES = {"title": "data-mt", "placeholder": "data-mp", "aria-label": "data-ma"}
"""The attributes a message can be in, and the attribute that carries its id there."""


def attr(name: str, message: str) -> Markup:
    """The attribute ``name`` (``title``, ``placeholder``, ``aria-label``) holding ``message``
    (no values), with its id beside it: ``title="birth year" data-mt=ID``."""
    text = message.replace("%%", "%")
    return Markup(f'{name}="{escape(text)}" {ATTRIBUTES[name]}={message_id(message)}')


def N_(message: str) -> str:
    """``message``, marked for extraction: it is translated where it is shown."""
    return message


def counted(n: int) -> Markup:
    """A count as English writes it, ``3,901``, marked as a count (``<data value>``) that the
    page script writes as the reader's language groups digits."""
    return Markup(f"<data value={int(n)}>{int(n):,}</data>")


JOIN = N_("%(first)s, %(next)s")
"""Two items of a list joined as the language joins them (``、`` in Chinese and Japanese); a
longer list nests it (:func:`joined`, the script's ``join``)."""
PLACE = N_("%(city)s, %(country)s")
"""A place: its city and its country (``，`` in Chinese, ``、`` in Japanese)."""


def joined(items: Iterable[object]) -> Markup:
    """``items`` (text, escaped; or markup) as a list in the reader's language: ``1, 2, 5`` in
    English, ``1、2、5`` in Chinese and Japanese (:data:`JOIN`, nested: the page script
    translates the innermost first)."""
    out: Markup | None = None
    for item in items:
        html = item if isinstance(item, Markup) else escape(item)
        out = html if out is None else _(JOIN, first=out, next=html)
    return out if out is not None else Markup("")


def place(city: str, country: str) -> str:
    """A place as HTML from its city and country (HTML, either may be ""): both joined as the
    reader's language joins them (:data:`PLACE`), else the one given."""
    if city and country:
        return str(_(PLACE, city=Markup(city), country=Markup(country)))
    return city or country


GAMES = (N_("Renju"), N_("Gomoku"))
"""The games a site can be of (``Site.game``), as messages."""


# --- catalogs -----------------------------------------------------------------------------------


def extract() -> list[str]:
    """The messages of the site, in the order found: the templates and the site's Python (the
    page families, and the declarations of the page script's tables and texts in
    ``contract.py``), the meanings of the reasons a game is not rated and the templates of the
    messages that say why (the rules' own texts, kept where the rules are)."""
    from babel.messages.extract import extract_from_dir

    method_map = [("templates/**.html", "jinja2"), ("*.py", "python")]
    options = {"templates/**.html": {"trimmed": "false", "newstyle_gettext": "true"}}
    found: dict[str, None] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
        HERE, method_map, options_map=options, keywords=KEYWORDS
    ):
        if isinstance(message, str) and message:
            found[key(message, context)] = None
    from whr.rules.messages import MESSAGES
    from whr.rules.reasons import REASONS

    for text in [*REASONS.values(), *MESSAGES.values()]:
        found[text] = None
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
    "USA": {"ru": "Соединённые Штаты"},  # ISO 3166's Russian writes "штаты"
}
"""Where the list names a country as sport does (the IOC's "Chinese Taipei") or the reader's
language says it shorter than ISO 3166's formal name ("Российская Федерация"): the name the
players know."""


def countries(language: str, codes: list[str], names: list[str]) -> dict[str, str]:
    """The names in ``language`` of the countries ``codes`` (the list's codes, English
    ``names``), from pycountry's ISO 3166 translations; a code ISO 3166 does not know (or a
    name it does not translate) is left out: the page keeps the English name."""
    import pycountry

    locale = LANGUAGES[language].countries
    assert locale is not None, language
    t = gettext_module.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[locale])
    iso = alpha2()
    out = {}
    for code, name in zip(codes, names, strict=True):
        if language in IOC_NAMES.get(code, {}):
            out[code] = IOC_NAMES[code][language]
            continue
        two = code if len(code) == 2 else iso.get(code)
        entry = pycountry.countries.get(alpha_2=two) if two else None
        if entry is None and len(code) == 3 and code.isalpha() and code.isupper():
            entry = pycountry.countries.get(alpha_3=code)  # an ISO 3166 code the file lacks
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


def positional(message: str, translation: str) -> str:
    """``translation`` as the page script fills it in: HTML (escaped unless ``message`` is
    HTML itself), ``%%`` a ``%``, and each ``%(name)s`` as ``{k}``: k is the place of the
    name's first ``<var>`` on the page (the values come in the English order)."""
    first: dict[str, int] = {}
    for k, name in enumerate(PLACEHOLDER.findall(message)):
        first.setdefault(name, k)
    html = translation if MARKUP.search(message) else str(escape(translation))
    if "{" in html:
        raise ValueError(f"translation {translation!r}: no braces (they number the values)")
    html = PLACEHOLDER.sub(lambda m: "{" + str(first[m.group(1)]) + "}", html)
    return html.replace("%%", "%")


def catalog_payload(language: str, countries_by_code: dict[str, str]) -> dict[str, Any]:
    """What ``lang-<language>.js`` holds: ``m``, every message as ``[id, translation]``
    (:func:`positional`), and ``c``, the names of the countries ``countries_by_code`` (code:
    English name) in the language as ``[code, name]``; pairs, which the page script puts in
    ``Map``\\ s (a code or an id is never a key into an object with a prototype)."""
    messages = []
    for k, translation in catalog(language).items():
        context, _sep, message = k.rpartition(CONTEXT)
        mid = message_id(message, context or None)
        messages.append([mid, positional(message, translation)])
    local = countries(language, list(countries_by_code), list(countries_by_code.values()))
    return {"m": sorted(messages), "c": sorted(local.items())}


def write_catalogs(static: Path, countries_by_code: dict[str, str]) -> list[str]:
    """Write each language's catalog, ``static/lang-<code>.js`` (:func:`catalog_payload`), for
    the page script; returns the files' names."""
    written = []
    for language in TRANSLATED:
        payload = catalog_payload(language, countries_by_code)
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
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
    for language in TRANSLATED:
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
