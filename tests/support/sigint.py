"""A fixture of the runtime's tests of Stop, imported where it is used: run_in_pyodide.mjs reads no conftest."""

import signal

import pytest


@pytest.fixture
def pythons_own_sigint_handler():
    """SIGINT handled by Python, as in Pyodide's worker. A shell without job control starts a background job
    (`pytest &` in a script) with SIGINT ignored, so CPython leaves it ignored, and the runner puts back what
    it found: without this, a test of Stop would see SIG_IGN after any run, or from the start."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)
