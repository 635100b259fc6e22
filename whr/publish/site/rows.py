"""The one Python row filler: a table's rows as HTML, from its declaration (``contract.py``).

The pages carry, for readers without script (text browsers, crawlers, a script that failed),
the first rows of every big table, the plain index pages and a player's and a tournament's own
rows; the page script then draws the table from the same declaration. Here is the Python half of
that: the rows a declared table shows (a :class:`Source`: the payload's values as Python has
them), chosen and ordered as a part (:class:`contract.Tab`) says, each cell made by the
formatter its column names (:data:`FORMATTERS`, the same names and the same text as the page
script's ``FORMAT``: ``tests/publish/site/test_rows.py`` holds the two equal in Chromium).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
from markupsafe import Markup, escape

from whr.publish.site.contract import PAYLOADS, STATUSES, TEXTS, Column, Tab, Table, Text
from whr.publish.site.i18n import place
from whr.publish.site.names import renjunet_game_url

Values = list[Any]  # one field's values, a row after another


class Source:
    """The rows of a table as Python has them: each field of its payload as a sequence (a
    numpy array or a list), a row per position; a field that holds a payload as a Source of its
    own; and the payloads the fields point into (``refs``: name -> Source). Missing values are
    None or NaN; a position below 0 points at nothing."""

    def __init__(
        self,
        payload: str,
        columns: Mapping[str, Any],
        refs: Mapping[str, Source] | None = None,
        size: int | None = None,
    ):
        self.payload = PAYLOADS[payload] if payload else None
        self.columns = dict(columns)
        self.refs = dict(refs or {})
        first: Any = next((v for v in self.columns.values() if not isinstance(v, Source)), [])
        self.size = len(first) if size is None else size
        self._arrays: dict[str, np.ndarray] = {}

    def has(self, path: str) -> bool:
        """Whether the data holds the field (an optional field may be left out)."""
        return path.split(".")[0] in self.columns

    def array(self, path: str) -> np.ndarray:
        """The values of a field path (``player.birth_year``) for every row, through what each
        position points into; None (object arrays) or NaN where a position points at nothing."""
        if path not in self._arrays:
            self._arrays[path] = self._resolve(path)
        return self._arrays[path]

    def _resolve(self, path: str) -> np.ndarray:
        step, _dot, rest = path.partition(".")
        values = _array(self.columns[step])
        f = self.payload.field(step) if self.payload and step in self.payload.names else None
        if f is None or not f.ref:
            return values
        target = self.columns.get(f.ref)
        if target is not None and not isinstance(target, Source):  # a list: its element
            return _take(_array(target).astype(object), values)
        if not rest:
            return values  # the position itself: a player's number, for the link
        if target is None:
            target = self.refs[f.ref]
        return _take(target.array(rest), values)

    def take(self, path: str, ids: np.ndarray) -> Values:
        """The values of a field path at the rows ``ids``: Python values, None for none."""
        values = self.array(path)[ids]
        out: list[Any] = values.tolist()
        if values.dtype.kind in "iub":  # (no missing value: the common case, at once)
            return out
        if values.dtype.kind == "f":
            for k in np.flatnonzero(np.isnan(values)).tolist():
                out[k] = None
            return out
        return [None if isinstance(v, float) and v != v else v for v in out]


def _array(values: Any) -> np.ndarray:
    """A field's values as an array (an object array when they are sequences themselves)."""
    if isinstance(values, np.ndarray):
        return values
    values = list(values)
    if any(isinstance(v, (list, tuple)) for v in values):
        return np.fromiter(values, dtype=object, count=len(values))
    return np.asarray(values)


def _take(values: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """``values`` at ``positions``; None where a position is below 0 (or not a number)."""
    pos = np.asarray(positions)
    if pos.dtype.kind not in "iu":
        pos = np.where(_missing(pos), -1, pos).astype(np.int64)
    found = pos >= 0
    if not len(values):
        return np.full(len(pos), None, dtype=object)
    if found.all():
        taken: np.ndarray = values[pos]
        return taken
    out: np.ndarray = np.asarray(values, dtype=object)[np.maximum(pos, 0)]
    out[~found] = None
    return out


def _missing(values: np.ndarray) -> np.ndarray:
    return np.array([v is None or (isinstance(v, float) and v != v) for v in values.tolist()])


# --- the formatters: the Python half of the script's FORMAT ----------------------------------


@dataclass(frozen=True)
class Context:
    """What the link formatters need beside the values: the way up to the site (``root``),
    the players (their name, page, native name, label, woman) by number."""

    root: str = ""
    players: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    # each player's link once made, by (number, with label): tens of thousands of cells link
    # the same few thousand players
    links: dict[tuple[int, bool], str] = field(default_factory=dict, compare=False, repr=False)


def signed(value: float) -> str:
    """A rating change as shown: ``+12``, ``−3`` (minus sign), ``0``; rounded to whole Elo."""
    n = int(np.rint(value))
    return f"+{n}" if n > 0 else (f"\u2212{-n}" if n < 0 else "0")


def score_text(twice: int) -> str:
    """2 x a score as the pages write it: ``3½``, ``½``, ``0``."""
    whole = str(twice // 2) if twice >= 2 or twice == 0 else ""
    return whole + ("\u00bd" if twice % 2 else "")


def grouped(n: int) -> Markup:
    """A count as English writes it, ``3,901``, marked as a count the page script writes as
    the reader's language groups digits (``<data value>``)."""
    return Markup(f"<data value={n}>{n:,}</data>")


def _whole(v: Any) -> str:
    return "" if v is None else str(int(round(v)))


@cache
def _new() -> str:
    """The new mark: its message's element, marked (one element: on every row of a newcomer)."""
    return str(TEXTS["new"].element("span", " class=new"))


def _player(ctx: Context, p: Any, label: bool) -> str:
    if p is None or p < 0:
        return "?"
    made = ctx.links.get((p, label))
    if made is None:
        made = ctx.links[(p, label)] = _player_link(ctx, p, label)
    return made


def _player_link(ctx: Context, p: Any, label: bool) -> str:
    pl = ctx.players
    native = pl["native"][p]
    html = (
        f"<a href={ctx.root}p/{escape(pl['page'][p])}.html"
        + (" class=f" if pl["female"][p] else "")
        + (f' title="{escape(native)}"' if native else "")
        + f">{escape(pl['name'][p])}</a>"
    )
    if label and pl["label"][p]:
        html += f" <small>{escape(pl['label'][p])}</small>"
    return html


def _link(ctx: Context, page: Any, name: Any) -> str:
    text = str(escape(name or ""))  # (a page's name is plain: no quotes needed, names.py)
    return f"<a href={ctx.root}tournaments/{escape(page)}.html>{text}</a>" if page else text


def _change(change: Any) -> str:
    return _new() if change == "n" else ("" if change is None else signed(change))


def _since(change: Any, before: Any) -> str:
    return _new() if before is None else ("" if change is None else signed(change))


def _status(code: Any) -> str:
    return "" if code is None else str(TEXTS[STATUSES[int(code)]].element("span"))


def place_html(city: Any, code: Any, name: Any) -> str:
    country = (
        f"<span data-c={escape(code or '')}>{escape(name or code)}</span>" if code or name else ""
    )
    return place(str(escape(city or "")), country)


def _person(name: Any, ident: Any) -> str:
    return "\u2013" if ident is None else f"{escape(name)} <small>{escape(ident)}</small>"


def _perf(value: Any, bound: Any) -> str:
    if value is None:
        return ""
    return ("\u2265" if bound > 0 else "\u2264" if bound < 0 else "") + _whole(value)


def _reason(code: Any, message: Any) -> str:
    """Why, in English (the script writes it in the reader's language), then the reason's code
    (muted by the stylesheet): the words first, a reader's; the code for programs and
    searches."""
    html = f"<code>{escape(code)}</code>"
    return (f"<span>{escape(message)}</span> " + html) if message else html


_RESULT = {"+": "1 : 0", "=": "\u00bd : \u00bd", "-": "0 : 1"}  # Black's result as a pairing's


def _game(game_id: Any, html: str) -> str:
    """``html`` linked to the game's page on renju.net (a RenjuNet id; none: not linked)."""
    if not game_id:
        return html
    return f'<a href="{escape(renjunet_game_url(str(game_id)))}" rel=nofollow>{html}</a>'


def _shared(change: Any, others: Any) -> str:
    """The change at the time, marked * when the same list first rated other tournaments of
    the player (the note above the table says so)."""
    html = _change(change)
    return f"{html}<sup>*</sup>" if others and html else html


def _estimate(before: Any, after: Any) -> str:
    """Today's estimates before and after a tournament: 2201 → 2202 (+1), new → 2202."""
    if after is None:
        return ""
    if before is None:
        return f"{_new()} \u2192 {int(after)}"
    return f"{int(before)} \u2192 {int(after)} ({signed(int(after) - int(before))})"


def _then(before: Any, after: Any, note: Any) -> str:
    """The change at the time: before → after (change), new → after, a dash where none was
    kept; and the note of the other tournaments one list first rated (HTML)."""
    if after is None:
        then = "\u2013"
    elif before is None:
        then = f"{TEXTS['new'].element('span')} \u2192 {int(after)}"
    else:
        then = f"{int(before)} \u2192 {int(after)} ({signed(int(after) - int(before))})"
    return then + (note or "")


Formatter = Callable[..., str]  # (context, the values of the column's fields in order) -> HTML
FORMATTERS: dict[str, Formatter] = {
    "number": lambda c, x: _whole(x),
    "dash": lambda c, x: "\u2013" if x is None else _whole(x),
    "count": lambda c, n: "" if n is None else str(grouped(int(n))),
    "rank": lambda c, r: str(int(r)) if r else "",
    "year": lambda c, y: str(int(y)) if y else "",
    "text": lambda c, s: str(escape(s or "")),
    "date": lambda c, s: str(escape(s or "")),
    "change": lambda c, d: _change(d),
    "since": lambda c, d, before: _since(d, before),
    "status": lambda c, s: _status(s),
    "player": lambda c, p: _player(c, p, False),
    "player_label": lambda c, p: _player(c, p, True),
    "link": lambda c, page, name: _link(c, page, name),
    "place": lambda c, city, code, name: place_html(city, code, name),
    "person": lambda c, name, ident: _person(name, ident),
    "reason": lambda c, code, text, _template, _values: _reason(code, text),
    "score": lambda c, twice: score_text(int(twice)),
    "score_games": lambda c, twice, games: f"{score_text(int(twice))}/{int(games)}",
    "perf": lambda c, value, bound: _perf(value, bound),
    "places": lambda c, first, last: str(first) if first == last else f"{first}\u2013{last}",
    "then": lambda c, before, after, note: _then(before, after, note),
    "cell": lambda c, cell: cell or "",
    "pairing": lambda c, result, game_id: _game(game_id, _RESULT.get(result, "")),
    "shared": lambda c, change, others: _shared(change, others),
    "estimate": lambda c, before, after: _estimate(before, after),
}
"""The formatters Python draws cells with (those of the columns shown without script, the kept
ones and those of the tables Python alone draws), by name: the same cells as the page script's
``FORMAT`` where both have one."""


# --- rows ---------------------------------------------------------------------------------------


def shown_columns(table: Table, tab: Tab, source: Source, static: bool = True) -> list[Column]:
    """The columns of ``tab`` that ``source``'s data has (the change only after a previous
    list), only those shown without script when ``static``."""
    out = []
    for name in tab.columns:
        c = table.column(name)
        if static and not c.static:
            continue
        if all(source.has(p) for p in (*c.fields, c.needs) if p):
            out.append(c)
    return out


def order(table: Table, tab: Tab, source: Source, rows: np.ndarray | None = None) -> np.ndarray:
    """The rows of ``tab`` (of ``rows``, all when None) in the order the script shows first:
    the tab's sort (its column's key, none last, ties in the data's order), else the data's."""
    ids = np.arange(source.size) if rows is None else np.asarray(rows)
    if tab.where:
        path, op, value = tab.where
        values = source.array(path)[ids]
        ids = ids[values == value] if op == "==" else ids[values > value]
    if tab.sort:
        column = table.column(tab.sort[0])
        key = np.asarray(source.array(column.key or column.fields[0])[ids], np.float64)
        if column.format == "rank" and not column.key:
            key = np.where(key > 0, key, np.nan)
        key = key * tab.sort[1]
        ids = ids[np.argsort(np.where(np.isnan(key), np.inf, key), kind="stable")]
    return ids


def cells(table: Table, columns: Sequence[Column], source: Source, ids: Iterable[int],
          ctx: Context, lists: Mapping[str, Sequence[str]] | None = None
          ) -> list[list[str]]:  # fmt: skip
    """Each row's cells (HTML) in ``columns``, as the formatters make them, marks included; a
    column of each entry of a list (``Column.each``: a crosstable's rounds, ``lists`` by name)
    is a cell per entry, its field's value the entry's part (the parts joined by ",")."""
    ids = np.asarray(list(ids) if not isinstance(ids, np.ndarray) else ids, np.int64)
    per_column = []
    for c in columns:
        values = [source.take(p, ids) for p in c.fields]
        f = FORMATTERS[c.format]
        if c.each:
            parts = [str(v or "").split(",") for v in values[0]]
            for k in range(len((lists or {}).get(c.each, ()))):
                per_column.append([f(ctx, x[k] if k < len(x) else "") for x in parts])
            continue
        texts = [f(ctx, *v) for v in zip(*values, strict=True)] if values else []
        for m in table.marks:
            if m.column == c.name and source.has(m.field):
                marked = np.zeros(source.size, bool)
                marked[np.asarray(source.columns[m.field], np.int64)] = True
                texts = [
                    f"{m.html()} {t}" if marked[i] else t
                    for t, i in zip(texts, ids.tolist(), strict=True)
                ]
        per_column.append(texts)
    return [list(row) for row in zip(*per_column, strict=True)] if per_column else []


@cache
def head(columns: tuple[Column, ...], lean: bool = False) -> str:
    """The headings of ``columns``: each its message (by id), its class unless ``lean``
    (computed once per set of columns: tens of thousands of pages have the same)."""
    out = []
    for c in columns:
        cls = f" class={_quoted(c.cls)}" if c.cls and not lean else ""
        out.append(f"<th{cls}{_mark(c.head)}>{c.head.html()}")
    return "".join(out)


def heads(columns: Sequence[Column], lists: Mapping[str, Sequence[str]], lean: bool) -> str:
    """The headings of ``columns`` with a heading per entry of a list (``Column.each``: the
    entry, as text)."""
    out: list[str] = []
    for c in columns:
        if c.each:
            out.extend(f"<th>{escape(entry)}" for entry in lists.get(c.each, ()))
        else:
            out.append(head((c,), lean))
    return "".join(out)


def _mark(text: Text) -> str:
    return f" data-m={text.id}" if text.id else ""


def _quoted(cls: str) -> str:
    return f'"{cls}"' if " " in cls else cls


def html(
    table: Table,
    tab: Tab,
    source: Source,
    ids: Iterable[int],
    ctx: Context,
    lean: bool = False,
) -> Markup:
    """The ``<thead>`` and ``<tbody>`` of the rows ``ids`` of ``tab`` (the columns shown without
    script); ``lean``: no classes, and the rows only, the first a row of headings (the player and
    tournament pages: tens of thousands of pages; HTML makes the rows a body itself)."""
    columns = shown_columns(table, tab, source)
    rows = cells(table, columns, source, ids, ctx)
    return table_html(columns, rows, lean)


def table_html(columns: Sequence[Column], rows: Iterable[Sequence[str]], lean: bool) -> Markup:
    """``<thead>``/``<tbody>`` of ``rows`` (cells of ``columns``, HTML): see :func:`html`."""
    opening = ["<td>" if lean or not c.cls else f"<td class={_quoted(c.cls)}>" for c in columns]
    out = [("<tr>" if lean else "<thead><tr>") + head(tuple(columns), lean)]
    out.append("\n" if lean else "</thead><tbody>\n")
    for row in rows:
        out.append("<tr>" + "".join(o + v for o, v in zip(opening, row, strict=True)) + "\n")
    if not lean:
        out.append("</tbody>")
    return Markup("".join(out))


def whole_html(
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    lists: Mapping[str, Sequence[str]] | None = None,
) -> Markup:
    """A table Python alone draws (``Table.scripted`` False): its ``<thead>`` (repeated on each
    printed sheet) and every row, the cells without classes (its stylesheet places them by
    position: tens of thousands of pages)."""
    out = ["<thead><tr>", heads(columns, lists or {}, True), "</thead><tbody>\n"]
    out.extend("<tr><td>" + "<td>".join(row) + "\n" for row in rows)
    out.append("</tbody>")
    return Markup("".join(out))
