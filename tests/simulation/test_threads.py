"""The batch kernels' threads: the wait policy chosen unless the user chose, and their count."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("numba")

from cuckoo_rules.batch import threads


def test_configure_keeps_a_policy_the_user_chose() -> None:
    assert threads.configure({"OMP_WAIT_POLICY": "ACTIVE"}) is False
    assert threads.configure({"GOMP_SPINCOUNT": "10000"}) is False
    chosen: dict[str, str] = {}
    assert threads.configure(chosen) is True
    assert chosen == {"OMP_WAIT_POLICY": "PASSIVE"}


@pytest.mark.parametrize(
    ("preset", "expected"), [(None, "PASSIVE"), ("ACTIVE", "ACTIVE"), ("passive", "passive")]
)
def test_importing_the_batch_sets_the_policy_only_when_unset(
    preset: str | None, expected: str
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    if preset is not None:
        env["OMP_WAIT_POLICY"] = preset
    code = "import os, cuckoo_rules.batch; print(os.environ['OMP_WAIT_POLICY'])"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == expected


def test_threads_follow_the_work_and_the_cores() -> None:
    most = min(threads.available_cores(), threads.threads_for(10**9))
    assert threads.threads_for(0) == 1
    assert threads.threads_for(threads.GAMES_PER_THREAD - 1) == 1
    assert threads.threads_for(10**9) == most
    assert 1 <= most <= len(os.sched_getaffinity(0))
    assert threads.threads_for(2, per_thread=1) == min(2, most)


def test_a_process_pinned_to_one_core_runs_the_kernels_on_one_thread() -> None:
    code = (
        "import os; os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})\n"
        "import numba, numpy as np, cuckoo_rules as cr\n"
        "from cuckoo_rules.batch import BatchGame, threads\n"
        "game = BatchGame(cr.GameOptions(num_players=2), range(1024))\n"
        "game.legal_action_mask()\n"
        "print(threads.threads_for(1024), numba.get_num_threads())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1", "1"]


def test_the_usual_layers_may_be_entered_from_several_threads() -> None:
    import numba

    safe = threads.thread_safe_layer()
    layer: str = getattr(numba, "threading_layer")()  # noqa: B009  # not in numba's exports
    assert safe == (layer != "workqueue")
