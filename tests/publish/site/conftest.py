"""Fixtures of the site's tests: its published directory, a page of the module's Chromium (desktop),
and one of each size."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.publish import support
from tests.publish.site.pages import SIZES, check_and_close, new_page


@pytest.fixture()
def page(browser):
    p = new_page(browser)
    yield p
    check_and_close(p)


@pytest.fixture(params=list(SIZES))
def sized(request, browser):
    """A page of each size (its name, the page)."""
    p = new_page(browser, SIZES[request.param])
    yield request.param, p
    check_and_close(p)


@pytest.fixture(scope="module")
def site(published: Path) -> Path:
    """The published site of the session's list."""
    return support.site_of(published)
