"""The page data and the tables (whr.publish.site.contract): the page script reads the data only
by the declared names, never by position, directly or through the tables' declarations; the data
the site writes is what is declared; a table is declared from declared fields, and drawn by
formatters both sides implement."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from pathlib import Path

import pytest

from tests.publish.support import read_data, site_of
from whr.lists import RuleNumbers
from whr.publish.site import contract, rows

SCRIPT = Path(contract.__file__).parent / "static" / "site.js"
# the what-if page's script reads its own data (contract.WHATIF, WHATIF_PAGE) by name too
WHATIF_SCRIPT = SCRIPT.with_name("whatif.js")
POSITIONAL = re.compile(r"\b[a-zA-Z_]\w*\[\d+\]")  # e[4], x[10]: a read by position
NAMED = re.compile(r"\bF\.(\w+)\.(\w+)")  # F.event.tournament


def code(text: str) -> str:
    """The script without its comments (a comment may say "e[4]")."""
    text = re.sub(r"/\*(?!@).*?\*/", "", text, flags=re.S)
    return "\n".join(re.sub(r"(^|\s)//.*$", "", line) for line in text.splitlines())


def test_the_script_reads_no_field_by_position():
    found = POSITIONAL.findall(code(SCRIPT.read_text(encoding="utf-8")))
    assert found == []


def read_by_the_tables() -> set[tuple[str, str]]:
    """The fields the tables' declarations read: each step of each path (a field, then what it
    points into), as (payload, field)."""
    out: set[tuple[str, str]] = set()
    for table in contract.tables(RULES).values():
        paths = [p for c in table.columns for p in (*c.fields, c.key, c.needs) if p and not c.kept]
        paths += [*table.search, *(m.field for m in table.marks)]
        paths += [x for x in (table.choose, table.pin, table.group, table.heading) if x]
        paths += [t.where[0] for t in table.tabs if t.where]
        for path in paths:
            through = contract.resolve(table, path)
            if path in dict(table.derived):
                continue
            for payload, step in zip(through, path.split("."), strict=False):
                out.add((payload, step))
                ref = contract.PAYLOADS[payload].field(step).ref
                if ref in contract.PAYLOADS[payload].names:  # the field it points into
                    out.add((payload, ref))
    return out


def test_the_script_reads_the_declared_fields_and_only_those():
    """The script reads a field as ``F.<payload>.<field>``, or through a table's declaration
    (contract.tables: the paths its columns, parts, search and marks read); every field declared
    as read is read one way or the other, and none declared as unread is."""
    text = "\n".join(code(s.read_text(encoding="utf-8")) for s in (SCRIPT, WHATIF_SCRIPT))
    used = set(NAMED.findall(text)) | read_by_the_tables()
    declared = {(p.name, f.name) for p in contract.PAYLOADS.values() for f in p.fields}
    assert used - declared == set(), "read but not declared"
    read = {(p.name, f.name) for p in contract.PAYLOADS.values() for f in p.fields if f.read}
    holders = {(p.name, f.name) for p in contract.PAYLOADS.values() for f in p.fields if f.holds}
    assert read - used - holders == set(), "declared as read by the script, but it does not"
    assert used & (declared - read) == set(), "declared as not read, but the script reads it"
    # every payload named on its own (F.game: a game row's length) is declared
    alone = set(re.findall(r"\bF\.(\w+)\b(?!\.)", text))
    assert alone <= set(contract.PAYLOADS), alone


RULES = RuleNumbers(dt.date(2021, 8, 8), 30.0)
FORMAT = re.compile(r"^    (\w+): \{", re.M)  # a formatter of the script's FORMAT


def test_every_formatter_is_drawn_the_same_by_both_sides():
    """A column names a formatter of contract.FORMATS; the script implements every one a table
    it draws uses (not the kept columns, which it takes from the page), Python every one the
    rows without script, the kept cells and the tables it alone draws use (a tournament's
    crosstable and pairings), with the same arguments: the column's fields."""
    script = SCRIPT.read_text(encoding="utf-8")
    block = script.split("var FORMAT = {", 1)[1].split("\n  };", 1)[0]
    in_script = set(FORMAT.findall(block))
    python = set(rows.FORMATTERS)
    used = {
        (c.format, c.kept, c.static, t.scripted)
        for t in contract.tables(RULES).values()
        for c in t.columns
    }
    assert {f for f, kept, _, drawn in used if drawn and not kept} == in_script
    assert in_script <= set(contract.FORMATS), "the script has a formatter no table it draws uses"
    assert {f for f, kept, static, drawn in used if kept or static or not drawn} <= python
    assert python <= set(contract.FORMATS)
    assert {f for f, *_ in used} == set(contract.FORMATS), "a formatter no column uses"
    for table in contract.tables(RULES).values():
        for c in table.columns:
            if c.format in python:  # called with the context and one value per field
                arity = rows.FORMATTERS[c.format].__code__.co_argcount
                assert arity == 1 + len(c.fields), (table.name, c.name)


def test_a_table_refuses_what_is_not_declared():
    good = contract.tables(RULES)["players"]
    with pytest.raises(ValueError, match="no 'birth' in players"):
        dataclasses.replace(good, search=("player.birth",))
    with pytest.raises(ValueError, match="is no position"):
        dataclasses.replace(good, search=("rating.name",))
    with pytest.raises(ValueError, match="unknown \\['peak'\\]"):
        dataclasses.replace(good, tabs=(dataclasses.replace(good.tabs[0], columns=("peak",)),))
    with pytest.raises(ValueError, match="format 'fancy'"):
        contract.Column("x", contract.literal("x"), ("rating",), "fancy")
    assert contract.resolve(good, "player.country.code") == ("list", "players", "countries")


def test_the_served_script_holds_the_declaration(published):
    served = (site_of(published) / "static" / "site.js").read_text(encoding="utf-8")
    line = next(x for x in served.splitlines() if x.startswith("var WHR_DECLARATION = "))
    given = json.loads(re.fullmatch(r"var WHR_DECLARATION = (\{.*\});", line).group(1))
    assert given == json.loads(json.dumps(contract.declaration(published_rules(published))))
    assert given["F"] == contract.script_fields()
    gy = [c["head"]["en"] for c in given["T"]["list"]["cols"] if re.fullmatch(r"gy\d", c["name"])]
    assert gy == ["Gy1", "Gy2", "Gy5"]  # the windows of the rules the list was computed with
    with pytest.raises(ValueError, match="once"):
        contract.page_script("var WHR_DECLARATION = {};", published_rules(published))


def published_rules(published: Path):
    from whr.lists import RuleNumbers

    manifest = json.loads(next((published / "archive").rglob("manifest.json")).read_text())
    return RuleNumbers.from_record(manifest.get("rules"))


def keys(payload: contract.Payload) -> set[str]:
    return {f.key for f in payload.fields}


def test_the_data_files_and_pages_hold_the_declared_fields(published):
    site = site_of(published)
    players = read_data(site, "players")
    assert set(players) == keys(contract.PLAYERS)
    assert set(players["countries"]) == keys(contract.COUNTRIES)
    assert set(read_data(site, "tournaments")) == keys(contract.TOURNAMENTS)
    current = read_data(site, "list-2026-11-25")
    optional = {f.key for f in contract.LIST.fields if f.optional}
    assert keys(contract.LIST) - optional <= set(current) <= keys(contract.LIST)
    for path in sorted((site / "p").glob("*.json"))[:20]:  # a player's data (the page's)
        data = json.loads(path.read_text(encoding="utf-8"))
        assert keys(contract.P_FILE) <= set(data)
        for name in ("published", "estimate", "tournaments", "games", "opponents"):
            payload = contract.PAYLOADS[contract.P_FILE.field(name).holds]
            optional = {f.key for f in payload.fields if f.optional}
            assert keys(payload) - optional <= set(data[name]) <= keys(payload), name
            assert len({len(column) for column in data[name].values()}) <= 1, name


def test_a_payload_refuses_what_is_not_declared():
    with pytest.raises(ValueError, match="unknown \\['ratin'\\]"):
        contract.SERIES.object(day=[], ratin=[])
    with pytest.raises(ValueError, match="missing \\['rating'\\]"):
        contract.SERIES.object(day=[])
    assert contract.NOW.rows_text(day=["1"], rating=["2"], uncertainty=["null"]) == ["[1,2,null]"]
    rows = contract.EVENT.rows_text(
        **{f.name: ["1"] for f in contract.EVENT.fields[:-1]}, ids=[None]
    )
    assert rows == ["[" + ",".join(["1"] * (len(contract.EVENT.fields) - 1)) + "]"]
