"""Importing a module of an optional extra that is not installed says what to install."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("cuckoo_rules.web", "starlette", "web"),
        ("cuckoo_rules.envs.pettingzoo", "pettingzoo", "pettingzoo"),
        ("cuckoo_rules.envs.gymnasium", "gymnasium", "gymnasium"),
        ("cuckoo_rules.envs.openspiel", "pyspiel", "openspiel"),
        ("cuckoo_rules.envs.openspiel", "numpy", "openspiel"),
        ("cuckoo_rules.batch", "numba", "batch"),
        ("cuckoo_rules.batch", "numpy", "batch"),
        ("cuckoo_rules.batch.gymnasium", "gymnasium", "gymnasium"),
        ("cuckoo_rules.bots.expert", "numba", "batch"),
    ],
)
def test_a_missing_extra_is_named(module: str, blocked: str, extra: str) -> None:
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"  # as if it were not installed
        "try:\n"
        f"    import {module}\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == f"{module} needs {blocked}: pip install 'cuckoo-rules[{extra}]'"


def test_the_core_imports_no_optional_dependency() -> None:
    code = (
        "import sys, cuckoo_rules, cuckoo_rules.envs, cuckoo_rules.bots\n"
        "heavy = {'numpy', 'numba', 'pettingzoo', 'gymnasium', 'pyspiel', 'starlette', 'uvicorn',"
        " 'rich'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"


def test_the_expert_spec_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "from cuckoo_rules.bots import BotSpecError, make_bot\n"
        "try:\n"
        "    make_bot('expert', seed=0)\n"
        "except BotSpecError as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == (
        "bot spec 'expert': cuckoo_rules.bots.expert needs numba: pip install 'cuckoo-rules[batch]'"
    )
