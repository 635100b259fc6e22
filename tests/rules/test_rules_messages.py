"""The messages that say why a game is not rated (whr.rules.messages): each reason's message is
one of its templates with the game's values, and is read back into that template and those
values (what the site's catalogs translate)."""

from __future__ import annotations

import pandas as pd
import pytest
from rules_helpers import AS_OF, run
from test_rules_reasons import build

from whr.rules import REASONS
from whr.rules.messages import MESSAGES, PLACEHOLDER, fill, parse


def test_every_reason_has_its_templates_and_every_template_its_reason():
    codes = {name.split(".", 1)[0] for name in MESSAGES}
    assert codes == set(REASONS)
    for template in MESSAGES.values():
        assert "%" not in PLACEHOLDER.sub("", template), template  # values only, no other %


@pytest.mark.parametrize("code", list(REASONS))
def test_a_reasons_message_reads_back_into_its_template(code, tmp_path):
    data, config, strict = build(code, tmp_path)
    sel = run(data, as_of=AS_OF, strict=strict, config=config)
    (message,) = sel.exclusions["message"]
    found = parse(code, message)
    assert found is not None, message
    name, values = found
    assert name == code or name.startswith(f"{code}.")
    assert fill(name, **values) == message


def test_fill_puts_values_in_as_they_are():
    values = pd.Series(["'%(x)s'", "100%"])  # data: never formatted with %
    out = fill("duplicate_game", game=values)
    assert list(out) == [
        "game id '%(x)s' was read before; only the first copy is judged",
        "game id 100% was read before; only the first copy is judged",
    ]
    assert parse("duplicate_game", out.iloc[1]) == ("duplicate_game", {"game": "100%"})
    assert parse("bye", "a bye: a round without a game, not a game") == ("bye.flag", {})
    assert parse("bye", "something the rules never wrote") is None
