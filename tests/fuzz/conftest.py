"""Hypothesis profiles of the fuzz tests, chosen by ``BUDGETSVM_FUZZ``.

* ``ci`` (the default, what ``python -m pytest`` runs): derandomised, so every
  run draws the same examples; a few dozen to a few hundred per test, about a
  minute for the whole directory on 2 cores.
* ``long``: 10 000 examples per test (one test per entry point), random
  seeds; ``docs/testing.md`` says how to run it. Its deadline is 30 s, not
  5 s: among 10 000 random problems some are ill-conditioned enough that the
  exact solver runs to its iteration bound (10^7 pair steps, LIBSVM's bound),
  seconds of work on a shared core that end with a ConvergenceWarning. Longer
  than that is a defect; longer than ``HANG_SECONDS`` a hang.
* ``sanitize``: the ``ci`` examples without the per-example deadline, for the
  run against the AddressSanitizer build (several times slower).

Every example also runs under a hard watchdog (``hang_guard``): an example
that does not return within ``HANG_SECONDS`` dumps all threads' stacks and
ends the process, so a hang fails loudly instead of stalling CI.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = dict(
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    print_blob=True,
)
settings.register_profile("ci", derandomize=True, deadline=5000, **_COMMON)
settings.register_profile("long", max_examples=10_000, deadline=30_000, **_COMMON)
settings.register_profile("sanitize", derandomize=True, deadline=None, **_COMMON)

PROFILE = os.environ.get("BUDGETSVM_FUZZ", "ci")
if PROFILE not in ("ci", "long", "sanitize"):
    raise ValueError(f"BUDGETSVM_FUZZ must be 'ci', 'long' or 'sanitize'; got {PROFILE!r}")
settings.load_profile(PROFILE)


def pytest_configure(config):
    from . import fuzzing

    fuzzing.CAPTURE["manager"] = config.pluginmanager.getplugin("capturemanager")
