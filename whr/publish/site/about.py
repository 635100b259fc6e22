"""``about.html``: the method, who is listed (in the numbers of the rules the list was computed
with), the data, and this list's parameters, inputs, counts and software (from its manifest)."""

from __future__ import annotations

from whr.publish.site.frame import Renderer


def write(r: Renderer) -> None:
    info = r.site.info
    r.render(
        "about.html",
        "about.html",
        links=info.get("links"),
        params=info.get("parameters", {}),
        fit_params=info.get("fit_params") or {},
        inputs=info.get("inputs", []),
        counts={k: v for k, v in (info.get("counts") or {}).items() if k != "selection"},
        packages=info.get("packages") or {},
        schema_version=info.get("schema_version", ""),
    )
