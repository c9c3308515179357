"""The README's test command on pytest-xdist's workers: how many, and in which order."""

from __future__ import annotations

import pytest

from tests.conftest import WARM_UP_JOBS, workers_for


@pytest.mark.parametrize(("cores", "workers"), [(1, 2), (2, 4), (3, 6), (8, 16), (64, 16)])
def test_auto_starts_two_workers_per_core_and_at_most_sixteen(cores: int, workers: int) -> None:
    assert workers_for(cores) == workers


def test_no_cores_still_gives_one_worker() -> None:
    assert workers_for(0) == 1


def test_the_warm_up_jobs_cover_every_path_once() -> None:
    pytest.importorskip("numba")
    from cuckoo_rules.batch import warm

    kernels = [name for job in WARM_UP_JOBS for name in job]
    assert sorted(kernels) == sorted({name for path in warm.PATHS for name in warm._KERNELS[path]})
