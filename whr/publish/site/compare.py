"""``compare.html``: two to five players' published ratings on one chart (issue 29).

A static page: the page script reads the players' ids from the address
(``compare.html#p=ID,ID``; each player page links it with its own id), fetches each one's data
beside their page (``p/<id>.json``, what the lists published) and draws them as step lines, one
per player, with a legend. Nothing of the players is in the page itself, so it costs the site
one page.
"""

from __future__ import annotations

from markupsafe import Markup

from whr.publish.site.frame import Renderer

MOST = 5
"""Players the page draws at most."""


def write(r: Renderer) -> None:
    """``compare.html``."""
    r.render(
        "compare.html",
        "compare.html",
        most=MOST,
        scripts=Markup(f"<script src={r.data_files['players']}></script>"),
    )
