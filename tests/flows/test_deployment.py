"""prefect.yaml: the deployment loads the real flow, with valid parameters, described for the UI,
one run at a time, a real source and the daily cron."""

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

    from flows import pipeline

    entry = deployment()["entrypoint"]
    flow = load_flow_from_entrypoint(str(REPO / entry))
    assert flow.name == pipeline.daily.name
    params = set(deployment()["parameters"])
    assert params <= set(inspect.signature(pipeline.daily.fn).parameters)
    assert "source" in params


def test_the_source_is_a_variable_never_the_sample() -> None:
    source = deployment()["parameters"]["source"]
    assert source == "{{ prefect.variables.rating_source }}"
    assert "sample" not in yaml.safe_dump(deployment()["parameters"])


def test_one_run_at_a_time_with_checked_parameters() -> None:
    assert deployment()["concurrency_limit"] == 1
    assert deployment()["enforce_parameter_schema"] is True


def test_every_parameter_is_described_for_the_ui() -> None:
    from prefect.utilities.callables import parameter_schema

    from flows import pipeline

    schema = parameter_schema(pipeline.daily.fn).model_dump()
    properties = schema["properties"]
    assert set(properties) == set(inspect.signature(pipeline.daily.fn).parameters)
    for name, field in properties.items():
        assert len(field.get("description") or "") > 15, name


def test_daily_schedule_matches_the_github_workflow() -> None:
    from prefect.client.schemas.schedules import CronSchedule

    (schedule,) = deployment()["schedules"]
    CronSchedule(cron=schedule["cron"], timezone=schedule["timezone"])  # validates the cron
    assert schedule["timezone"] == "UTC"
    workflow = yaml.safe_load((REPO / ".github/workflows/daily.yml").read_text(encoding="utf-8"))
    on = workflow.get(True, workflow.get("on"))
    assert on["schedule"][0]["cron"] == schedule["cron"]
    assert int(schedule["cron"].split()[0]) % 2 == 1
