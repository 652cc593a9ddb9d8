"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")  # per module: a test may start its own Playwright
def browser() -> Iterator[Any]:
    """A headless Debian chromium, driven by Playwright, for the browser tests of a module."""
    from playwright.sync_api import sync_playwright

    from tests.test_render_browser import ARGS, CHROMIUM

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
