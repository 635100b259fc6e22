"""``about.html``: the method, who is listed (in the numbers of the rules the list was computed
with), the data, and this list's parameters, inputs, counts and software (from its manifest).

The parameters and counts are said in words, each once, with its unit (:data:`PARAMETERS`,
:data:`COUNTS`: messages, in every language); one the site does not know yet (a parameter added
later) is shown by its key, marked English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup, escape

from whr.publish.site.frame import Renderer, shown
from whr.publish.site.i18n import N_, _, counted

PARAMETERS: dict[str, tuple[str, str | None]] = {
    "category": (N_("Category (renju or gomoku)"), None),
    "variant": (N_("Variant"), None),
    "w2_elo2_per_day": (
        N_("Rating variability w² (how far a rating may move in a day)"),
        N_("%(value)s Elo² per day"),
    ),
    "virtual_games": (N_("Virtual draws on each player's first day"), None),
    "virtual_rating": (N_("Rating of the virtual opponent"), N_("%(value)s Elo")),
    "tol_elo": (
        N_("Fit converged: the last Newton step moves no rating by more than"),
        N_("%(value)s Elo"),
    ),
    "tol_grad_per_natural_unit": (
        N_("Fit converged: no component of the gradient of the log posterior above"),
        N_("%(value)s per natural unit of rating (400 / ln 10, about 173.7 Elo)"),
    ),
    "max_newton_iterations": (N_("Newton iterations at most"), None),
    "jitter_per_natural2": (
        N_("Added to the diagonal of minus the Hessian, for the uncertainties only"),
        N_("%(value)s per natural unit of rating squared"),
    ),
    "strict": (
        N_("Strict mode (a game counts only when every fact the rules need is known)"),
        None,
    ),
    "max_name_chars": (N_("Longest name kept"), N_("%(value)s characters")),
    "rules_sha256": (N_("Eligibility rules (sha256 of their files)"), None),
}
"""Each parameter of a list (``Run.parameters`` and ``FitParams``, by key): what it is, in
words, and its value with its unit (``%(value)s``; None: the value alone)."""
SAME = {"w2": "w2_elo2_per_day"}
"""Keys of older manifests, and the parameter they are."""
COUNTS: dict[str, str] = {
    "players": N_("Players in the data"),
    "tournaments": N_("Tournaments in the data"),
    "rated_games": N_("Rated games"),
    "exclusions": N_("Games not rated"),
    "history_rows": N_("Rating days of all players"),
    "listed": N_("Players on the list"),
    "active": N_("Established active players"),
    "inactive": N_("Established inactive players"),
    "provisional": N_("Provisional players"),
    "established": N_("Established players"),
    "year_end_lists": N_("Year-end lists"),
    "facts_needed": N_("Tournaments whose facts the rules need (facts_needed.csv)"),
}
"""Each count of a list (``Counts.record``, by key), in words."""
YES, NO, NONE = N_("yes"), N_("no"), N_("none: the official list")


def _value(key: str, value: Any) -> Markup:
    if key == "category" and isinstance(value, str):
        return _(value.capitalize())
    if key == "variant":
        return escape(value) if value else _(NONE)
    if isinstance(value, bool):
        return _(YES if value else NO)
    if key == "rules_sha256":
        return Markup(f"<code class=sum>{escape(value)}</code>")
    unit = PARAMETERS[key][1]
    return _(unit, value=shown(value)) if unit else escape(shown(value))


def parameter_rows(parameters: Mapping[str, Any], fit: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The parameters of a list as the about page and an archived day's page show them: each
    once (the fit's own record first: ``fit``, then the manifest's ``fit``, then its keys), in
    words with its unit; an unknown one by its key (``english``)."""
    values: dict[str, Any] = {}
    for k, v in {**parameters, **(parameters.get("fit") or {}), **fit}.items():
        if k in ("as_of", "fit"):
            continue
        values[SAME.get(k, k)] = v
    rows = []
    for key in [*PARAMETERS, *sorted(set(values) - set(PARAMETERS))]:
        if key not in values:
            continue
        if key in PARAMETERS:
            rows.append(
                {
                    "label": _(PARAMETERS[key][0]),
                    "value": _value(key, values[key]),
                    "english": False,
                }
            )
        else:
            rows.append({"label": key, "value": shown(values[key]), "english": True})
    return rows


def count_rows(counts: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The counts of a list in words (``facts_needed``: its tournaments and games)."""
    rows = []
    for key, value in counts.items():
        if key == "selection":
            continue
        if key == "facts_needed" and isinstance(value, Mapping):
            value = _(
                "%(tournaments)s tournaments, %(games)s games",
                tournaments=value.get("tournaments", 0),
                games=value.get("games", 0),
            )
        if isinstance(value, int) and not isinstance(value, bool):
            value = counted(value)
        if key in COUNTS:
            rows.append({"label": _(COUNTS[key]), "value": value, "english": False})
        else:
            rows.append({"label": key, "value": shown(value), "english": True})
    return rows


def _links(links: Mapping[str, str] | None) -> dict[str, str] | None:
    """The archive's addresses relative to the site (the publisher's ``links``), with ``top``:
    the published tree's top, where ``archive.html`` is, beside ``published.json`` and
    ``datapackage.json``."""
    if not links:
        return None
    archive = links.get("archive", "")
    return {
        **links,
        "top": archive[: -len("archive.html")] if archive.endswith("archive.html") else "",
    }


def write(r: Renderer) -> None:
    info = r.site.info
    r.render(
        "about.html",
        "about.html",
        links=_links(info.get("links")),
        sitemap=r.site.base_url is not None,
        params=info.get("parameters", {}),
        parameters=parameter_rows(info.get("parameters", {}), info.get("fit_params") or {}),
        fit_params=info.get("fit_params") or {},
        inputs=info.get("inputs", []),
        counts=count_rows(info.get("counts") or {}),
        packages=info.get("packages") or {},
        schema_version=info.get("schema_version", ""),
    )
