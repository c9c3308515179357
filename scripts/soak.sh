#!/usr/bin/env bash
# Long property-test runs, not for CI: the Hypothesis "soak" profile (20,000 examples per
# property) over the state machine, hidden information, events and determinism tests.
# Usage: bash scripts/soak.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
export HYPOTHESIS_PROFILE=soak
exec .venv/bin/pytest -p no:cacheprovider --hypothesis-show-statistics \
    tests/rules/test_state_machine.py tests/secrecy/test_views.py tests/rules/test_events.py \
    tests/house/test_determinism.py "$@"
