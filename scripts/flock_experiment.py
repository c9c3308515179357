"""The flock-size experiment: change one flock size in ``cards.py`` and nothing else.

In a temporary copy of the repository (a git repository of its own, so that what changes
is counted), the script changes the small flock of one species in
``src/cuckoo_rules/cards.py``, runs the one command that regenerates the pinned data
(``scripts/regenerate.py``), and then runs the tests that must follow the model: the
batch kernels against the engine on random games, the greedy bot batched and not, the
card art, the rules, the previews and the golden games. It prints the files that changed
(the model's one line and the regenerated data) and exits with pytest's status.

That is the test of "every fact stated once": the kernels, the card art and the bots take
the flock sizes from the model, so nothing but pinned data needs a hand.

Usage::

    python scripts/flock_experiment.py                       # magpie: small flock 5 -> 6
    python scripts/flock_experiment.py --species owl --small 2 --big 5
    python scripts/flock_experiment.py --tests tests/simulation/test_batch.py --keep /tmp/exp
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARDS = Path("src/cuckoo_rules/cards.py")

# The tests that must pass in the changed copy once the pinned data is regenerated.
DEFAULT_TESTS = (
    "tests/simulation/test_batch.py",
    "tests/frontends/test_card_art.py",
    "tests/rules/test_rules.py",
    "tests/rules/test_preview.py",
    "tests/house/test_golden.py",
    "tests/bots/test_bots.py",
    "tests/secrecy/test_observation.py",
    "tests/house/test_layers.py",
)

# The shared vectors are the specification's games under the real flock sizes: with
# another flock size they no longer replay (which is right), and nothing regenerates them.
DESELECTED = (
    "tests/house/test_golden.py::test_game_vector_state_after_every_action",
    "tests/house/test_golden.py::test_version_1_game_vector_reads_as_the_version_2_states",
    "tests/house/test_golden.py::test_the_version_2_vectors_reach_what_the_new_options_change",
    "tests/simulation/test_batch.py::test_the_shared_vectors_replay_in_a_batch",
)


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> int:
    """Run ``command`` in ``cwd``, echoing it; return its exit status."""
    print("$", " ".join(command), flush=True)
    return subprocess.run(command, cwd=cwd, env=env, check=False).returncode


def copy_repository(into: Path) -> None:
    """Copy the files git knows (tracked, and untracked but not ignored) into ``into``."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for raw in listed:
        if not raw:
            continue
        name = raw.decode()
        source = ROOT / name
        if not source.is_file():  # deleted in the working tree
            continue
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    git = ["git", "-c", "user.name=experiment", "-c", "user.email=experiment@localhost"]
    for command in (
        ["git", "init", "-q"],
        ["git", "add", "-A"],
        [*git, "commit", "-q", "-m", "copy"],
    ):
        subprocess.run(command, cwd=into, check=True)


def change_flock(cards: Path, species: str, small: int | None, big: int | None) -> str:
    """Change ``species``' flock sizes in ``cards`` (its one line in ``_NUMBERS``)."""
    text = cards.read_text(encoding="utf-8")
    pattern = re.compile(
        rf"^(\s*Species\.{species.upper()}: \()(\d+), (\d+), (\d+)(\),)$", re.MULTILINE
    )
    found = pattern.findall(text)
    if len(found) != 1:
        raise SystemExit(f"cards.py: expected one line of numbers for {species}, found {found}")
    _, copies, old_small, old_big, _ = found[0]
    new_small = old_small if small is None else str(small)
    new_big = old_big if big is None else str(big)
    changed = pattern.sub(rf"\g<1>{copies}, {new_small}, {new_big}\g<5>", text)
    cards.write_text(changed, encoding="utf-8")
    return f"{species}: small {old_small} -> {new_small}, big {old_big} -> {new_big}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--species", default="magpie", help="the species to change (magpie)")
    parser.add_argument("--small", type=int, default=6, help="its new small flock (6)")
    parser.add_argument("--big", type=int, default=None, help="its new big flock (unchanged)")
    parser.add_argument("--tests", nargs="*", default=list(DEFAULT_TESTS), help="what to run")
    parser.add_argument("--keep", type=Path, default=None, help="make the copy here and keep it")
    args = parser.parse_args()

    temporary = None
    if args.keep is None:
        temporary = tempfile.TemporaryDirectory(prefix="flock-experiment-")
        where = Path(temporary.name)
    else:
        where = args.keep
        where.mkdir(parents=True, exist_ok=False)
    try:
        copy_repository(where)
        print("changed", change_flock(where / CARDS, args.species, args.small, args.big))
        env = {**os.environ, "PYTHONPATH": str(where / "src")}
        env.pop("NUMBA_CACHE_DIR", None)  # the copy's kernels compile from its own model
        check = [sys.executable, "-c", "import cuckoo_rules, sys; print(cuckoo_rules.__file__)"]
        located = subprocess.run(check, env=env, capture_output=True, text=True, check=True)
        if not located.stdout.startswith(str(where)):
            raise SystemExit(f"the copy is not the package imported: {located.stdout}")
        status = run([sys.executable, "scripts/regenerate.py"], where, env)
        if status:
            print("scripts/regenerate.py failed", file=sys.stderr)
            return status
        touched = subprocess.run(
            ["git", "status", "--porcelain"], cwd=where, capture_output=True, text=True, check=True
        ).stdout.splitlines()
        print(f"files changed by the experiment ({len(touched)}):")
        for line in touched:
            print("  ", line)
        deselect = [f"--deselect={test}" for test in DESELECTED]
        pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *deselect]
        pytest += args.tests
        return run(pytest, where, env)
    finally:
        if temporary is not None:
            temporary.cleanup()


if __name__ == "__main__":
    sys.exit(main())
