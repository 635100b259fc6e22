"""prefect.yaml: the deployment loads the real flow, with a valid run as its parameter, described
for the UI, one run at a time, a real source and the daily cron."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
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
    assert set(deployment()["parameters"]) == set(inspect.signature(pipeline.daily.fn).parameters)


def test_the_source_is_a_variable_never_the_sample(prefect_server: None) -> None:
    """The deployment's run, its variable resolved as `prefect deploy` resolves it, is a valid
    run of the real database; without the variable it is refused, never the sample."""
    import asyncio

    from prefect.exceptions import ParameterTypeError
    from prefect.utilities.templating import resolve_variables
    from prefect.variables import Variable

    from flows import pipeline

    parameters = deployment()["parameters"]
    assert parameters["run"]["sources"] == ["{{ prefect.variables.rating_source }}"]
    assert "sample" not in yaml.safe_dump(parameters)
    url = "https://example.org/renjunet_v10.rif.gz"
    Variable.set("rating_source", url, overwrite=True)
    try:
        resolved = asyncio.run(resolve_variables(parameters))
    finally:
        Variable.unset("rating_source")
    (run,) = pipeline.daily.validate_parameters(resolved).values()
    assert run.sources == (url,) and run.out == Path("out") and run.variant is None
    assert run.game_links and run.base_url is None  # the real database: games linked
    unset = asyncio.run(resolve_variables(parameters))
    with pytest.raises(ParameterTypeError, match="sources: expected one or more paths or URLs"):
        pipeline.daily.validate_parameters(unset)


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
    # the run's form: every field of the run and of its parts, with its help text
    forms = schema["definitions"]
    assert set(forms) == {"Run", "FitParams", "PullSettings", "ReadLimits"}
    for form, described in forms.items():
        for name, field in described["properties"].items():
            assert len(field.get("description") or "") > 15, f"{form}.{name}"
    assert forms["Run"]["required"] == ["sources"]


def test_daily_schedule_matches_the_github_workflow() -> None:
    from prefect.client.schemas.schedules import CronSchedule

    (schedule,) = deployment()["schedules"]
    CronSchedule(cron=schedule["cron"], timezone=schedule["timezone"])  # validates the cron
    assert schedule["timezone"] == "UTC"
    workflow = yaml.safe_load((REPO / ".github/workflows/daily.yml").read_text(encoding="utf-8"))
    on = workflow.get(True, workflow.get("on"))
    assert on["schedule"][0]["cron"] == schedule["cron"]
    assert int(schedule["cron"].split()[0]) % 2 == 1
