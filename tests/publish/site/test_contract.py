"""The page-data contract (whr.publish.site.contract): the page script reads the data only by
the declared names, never by position, and the data the site writes is what is declared."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.publish.support import read_data, site_of
from whr.publish.site import contract

SCRIPT = Path(contract.__file__).parent / "static" / "site.js"
POSITIONAL = re.compile(r"\b[a-zA-Z_]\w*\[\d+\]")  # e[4], x[10]: a read by position
NAMED = re.compile(r"\bF\.(\w+)\.(\w+)")  # F.event.tournament


def code(text: str) -> str:
    """The script without its comments (a comment may say "e[4]")."""
    text = re.sub(r"/\*(?!@).*?\*/", "", text, flags=re.S)
    return "\n".join(re.sub(r"(^|\s)//.*$", "", line) for line in text.splitlines())


def test_the_script_reads_no_field_by_position():
    found = POSITIONAL.findall(code(SCRIPT.read_text(encoding="utf-8")))
    assert found == []


def test_the_script_reads_the_declared_fields_and_only_those():
    text = code(SCRIPT.read_text(encoding="utf-8"))
    used = set(NAMED.findall(text))
    declared = {(p.name, f.name) for p in contract.PAYLOADS.values() for f in p.fields}
    assert used - declared == set(), "read but not declared"
    read = {(p.name, f.name) for p in contract.PAYLOADS.values() for f in p.fields if f.read}
    assert read - used == set(), "declared as read by the script, but it does not"
    assert used & (declared - read) == set(), "declared as not read, but the script reads it"
    # every payload named on its own (F.game: a game row's length) is declared
    alone = set(re.findall(r"\bF\.(\w+)\b(?!\.)", text))
    assert alone <= set(contract.PAYLOADS), alone


def test_the_served_script_holds_the_declaration_and_the_rules(published):
    served = (site_of(published) / "static" / "site.js").read_text(encoding="utf-8")
    line = next(x for x in served.splitlines() if x.startswith("var WHR_FIELDS = "))
    fields, rules = re.fullmatch(r"var WHR_FIELDS = (\{.*\}), WHR_RULES = (\{.*\});", line).groups()
    assert json.loads(fields) == contract.script_fields()
    assert json.loads(rules) == {
        "established_games": 10,
        "active_years": 5,
        "gy1_games": 10,
        "windows_years": [1, 2, 5],
    }
    with pytest.raises(ValueError, match="once each"):
        contract.page_script("var WHR_FIELDS = {};", published_rules(published))


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
    (page,) = [p for p in (site / "p").glob("*.html") if "player-data" in p.read_text("utf-8")][:1]
    text = page.read_text(encoding="utf-8")
    data = json.loads(text.split("id=player-data>", 1)[1].split("</script>", 1)[0])
    assert set(data) == keys(contract.PLAYER)
    rows = {len(e) for e in data["events"]}
    n = len(contract.EVENT.fields)
    assert rows <= {n - 1, n}, rows  # the ids only when a game links to renju.net
    for event in data["events"]:
        assert len(event[contract.EVENT.script()["played"]]) % len(contract.GAME.fields) == 0


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
