"""prefect.yaml: the deployment loads the real flow, with valid parameters and the daily cron."""

from __future__ import annotations

import inspect
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def deployment() -> dict:
    config = yaml.safe_load((REPO / "prefect.yaml").read_text(encoding="utf-8"))
    (only,) = config["deployments"]
    return only


def test_entrypoint_is_the_daily_flow() -> None:
    from prefect.flows import load_flow_from_entrypoint

    from flows import daily

    entry = deployment()["entrypoint"]
    flow = load_flow_from_entrypoint(str(REPO / entry))
    assert flow.name == daily.daily.name
    params = set(deployment()["parameters"])
    assert params <= set(inspect.signature(daily.daily.fn).parameters)
    assert "source" in params


def test_daily_schedule_matches_the_github_workflow() -> None:
    from prefect.client.schemas.schedules import CronSchedule

    (schedule,) = deployment()["schedules"]
    CronSchedule(cron=schedule["cron"], timezone=schedule["timezone"])  # validates the cron
    assert schedule["timezone"] == "UTC"
    workflow = yaml.safe_load((REPO / ".github/workflows/daily.yml").read_text(encoding="utf-8"))
    on = workflow.get(True, workflow.get("on"))
    assert on["schedule"][0]["cron"] == schedule["cron"]
    assert int(schedule["cron"].split()[0]) % 2 == 1
