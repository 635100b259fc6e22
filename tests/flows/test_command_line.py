"""The command line and the flow's argument checks, without running the flow.

The run summary, the snapshot look-ups and the rules digest are library functions; their tests
are in ``tests/publish/test_publish_summary.py``, ``tests/publish/test_snapshots.py`` and
``tests/rules/test_rules_config.py``.
"""

from __future__ import annotations

import datetime as dt
import inspect

import pytest

from flows import daily


def test_command_line_covers_every_flow_parameter() -> None:
    flow_params = set(inspect.signature(daily.daily.fn).parameters)
    help_text = daily.parser().format_help()
    dests = {a.dest for a in daily.parser()._actions} - {"help"}
    renamed = {
        "timeout": "pull_timeout_s",
        "retries": "pull_retries",
        "backoff": "pull_backoff_s",
        "max_bytes": "pull_max_bytes",
    }
    assert {renamed.get(d, d) for d in dests} == flow_params
    for action in daily.parser()._actions:
        assert action.help and len(action.help) > 20, action.dest
    assert "--as-of" in help_text and "--virtual-games" in help_text


def test_command_line_parses_and_rejects() -> None:
    args = daily.parser().parse_args(
        ["--source", "a.rif", "--source", "egf/", "--as-of", "2021-08-08", "--w2", "19.3"]
    )
    assert args.source == ["a.rif", "egf/"]
    assert args.as_of == dt.date(2021, 8, 8)
    assert args.w2 == 19.3 and args.category == "renju" and not args.force
    with pytest.raises(SystemExit):
        daily.parser().parse_args(["--source", "a", "--as-of", "2021-13-01"])
    with pytest.raises(SystemExit):
        daily.parser().parse_args(["--source", "a", "--category", "chess"])
    with pytest.raises(SystemExit):
        daily.parser().parse_args([])


@pytest.mark.parametrize(
    ("change", "name"),
    [
        ({"sources": []}, "source"),
        ({"category": "chess"}, "category"),
        ({"w2": 0.0}, "w2"),
        ({"virtual_games": -1}, "virtual_games"),
        ({"pull_retries": -1}, "pull_retries"),
    ],
)
def test_bad_arguments_name_the_argument(change: dict, name: str) -> None:
    good = {
        "sources": ["x"],
        "category": "renju",
        "w2": 12.9,
        "virtual_games": 2,
        "pull_retries": 0,
        "pull_backoff_s": 0.0,
    }
    with pytest.raises(ValueError, match=name):
        daily._check_arguments(**{**good, **change})
