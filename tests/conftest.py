"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.lanes import CHROMIUM, require_chromium


@pytest.fixture(scope="session")
def chromium() -> str:
    """The browser's path; the test is skipped without it (or fails under CI: tests/lanes.py)."""
    require_chromium()
    return CHROMIUM


@pytest.fixture(scope="module")  # per module: a test may start its own Playwright
def browser(chromium: str) -> Iterator[Any]:
    """A headless Debian chromium, driven by Playwright, for the browser tests of a module."""
    from playwright.sync_api import sync_playwright

    from tests.test_render_browser import ARGS

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=ARGS)
        yield b
        b.close()
