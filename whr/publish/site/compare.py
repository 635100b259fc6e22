"""``compare.html``: two to five players' published ratings on one chart (issue 29, 39).

A static page: the page script finds players by name, native name, id or city as the players
index does (from the players data every page loads), keeps the chosen ids in the address
(``compare.html#p=ID,ID``; each player page links it with its own id), fetches each one's data
beside their page (``p/<id>.json``, what the lists published) and draws them as step lines, one
per player, as a player's chart draws them, with a legend. Nothing of the players is in the page
itself, so it costs the site one page; without script, or from a file, it says what it needs.
"""

from __future__ import annotations

from markupsafe import Markup

from whr.publish.site.contract import CFG
from whr.publish.site.frame import Renderer

MOST = 5
"""Players the page draws at most."""


def write(r: Renderer) -> None:
    """``compare.html``."""
    r.render(
        "compare.html",
        "compare.html",
        most=MOST,
        cfg=CFG.object(root=""),
        scripts=Markup(f"<script src={r.data_files['players']}></script>"),
    )
