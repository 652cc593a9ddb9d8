"""What some tests need beyond Python packages, and what they do without it (README.md,
"Running the tests"): a browser, and PostgreSQL (tests/test_store.py).

Without them the tests skip, saying why, so `make test` passes on a fresh machine; with
`CI=true` they fail instead, so CI cannot pass without really running them. `ZFREC_CHROMIUM`
names the browser (`/nonexistent` hides it, as `.ci/bare.sh` does).
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

CHROMIUM = os.environ.get("ZFREC_CHROMIUM") or "/usr/bin/chromium"


def in_ci() -> bool:
    """Whether this is CI (`CI=true`), where nothing may be skipped for want of a service."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def unavailable(reason: str) -> NoReturn:
    """Skip the test for `reason`, or fail it under CI."""
    __tracebackhide__ = True  # the skip is listed at the test, not here
    if in_ci():
        pytest.fail(f"CI=true, but {reason}")
    pytest.skip(reason)


def require_chromium() -> None:
    """Skip (or under CI fail) unless Chromium and Playwright are there."""
    __tracebackhide__ = True
    if not os.access(CHROMIUM, os.X_OK):
        unavailable(
            f"no browser at {CHROMIUM} (install Debian's chromium, or set ZFREC_CHROMIUM; "
            ".ci/services.sh)"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        unavailable("Playwright is not installed (make setup)")
