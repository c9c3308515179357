"""Tests of the card art sprite ``web/static/birds.svg`` that the browser client uses.

The sprite holds one ``<symbol>`` per species (``bird-<species value>``) and the card
back. It must be safe to serve (no scripts, event handlers, external references or
raster images), and every card face must carry the numbers the rules print on it (the
small and big flock sizes from ``cuckoo_rules.cards``) and a species letter, so that a
player who cannot tell the colours apart can still read the card. The numbers are written
by ``scripts/make_card_art.py`` from the model: the file must be what the script writes,
and the script must follow a flock size changed in the model.

The last test renders every symbol through ``<use href="birds.svg#...">`` in Debian's
Chromium. Without the ``playwright`` package or a Chromium it is skipped, unless
``CUCKOO_REQUIRE_BROWSER=1`` is set, which turns the skip into a failure.
"""

from __future__ import annotations

import importlib.util
import itertools
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

import cuckoo_rules
from cuckoo_rules import SPECIES, Species
from tests.browser import chromium_path, unavailable
from tests.conftest import ROOT, load_module

if TYPE_CHECKING:
    from playwright.sync_api import Route

SPRITE = Path(cuckoo_rules.__file__).parent / "web" / "static" / "birds.svg"
SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
VIEW_BOX = "0 0 100 140"
MAX_BYTES = 40_000
BACK = "card-back"
LETTERS = {
    Species.FLAMINGO: "F",
    Species.OWL: "O",
    Species.TOUCAN: "T",
    Species.DUCK: "D",
    Species.PARROT: "P",
    Species.MAGPIE: "M",
    Species.REED_WARBLER: "W",
    Species.ROBIN: "R",
}
HEX_COLOUR = re.compile(r"#[0-9a-f]{6}")
# What must never appear in a sprite the client inlines through <use>.
FORBIDDEN_TAGS = {"script", "image", "foreignObject", "iframe", "embed", "object", "style"}


def bird_id(species: Species) -> str:
    """The symbol id of a species' card face."""
    return f"bird-{species.value}"


def local(name: str) -> str:
    """An element or attribute name without its ``{namespace}``."""
    return name.rpartition("}")[2]


@pytest.fixture(scope="module")
def script() -> ModuleType:
    """``scripts/make_card_art.py``, imported as a module."""
    return load_module(ROOT / "scripts" / "make_card_art.py", "make_card_art")


@pytest.fixture(scope="module")
def root() -> ET.Element:
    return ET.parse(SPRITE).getroot()


@pytest.fixture(scope="module")
def symbols(root: ET.Element) -> dict[str, ET.Element]:
    found = root.findall(f"{{{SVG}}}symbol")
    ids = [symbol.get("id", "") for symbol in found]
    assert len(ids) == len(set(ids)), f"duplicate symbol ids: {ids}"
    return dict(zip(ids, found, strict=True))


def texts(symbol: ET.Element, class_name: str) -> list[str]:
    """The text of every ``<text class="<class_name>">`` inside a symbol."""
    return [
        "".join(element.itertext()).strip()
        for element in symbol.iter(f"{{{SVG}}}text")
        if class_name in element.get("class", "").split()
    ]


# --------------------------------------------------------------------------- the file


def test_the_sprite_is_a_small_svg_document(root: ET.Element) -> None:
    assert root.tag == f"{{{SVG}}}svg"
    assert SPRITE.stat().st_size < MAX_BYTES


def test_there_is_one_symbol_per_species_and_the_card_back(
    symbols: dict[str, ET.Element],
) -> None:
    expected = {bird_id(species) for species in SPECIES} | {BACK}
    assert len(expected) == 9
    assert set(symbols) == expected


def test_every_symbol_is_a_card_of_the_same_size(symbols: dict[str, ET.Element]) -> None:
    for name, symbol in symbols.items():
        assert symbol.get("viewBox") == VIEW_BOX, name


def test_nothing_in_the_sprite_runs_or_loads_anything(root: ET.Element) -> None:
    internal_ids = {element.get("id") for element in root.iter() if element.get("id")}
    for element in root.iter():
        tag = local(element.tag)
        assert tag not in FORBIDDEN_TAGS, tag
        for attribute, value in element.attrib.items():
            name = local(attribute)
            assert not name.lower().startswith("on"), f"{tag} has the handler {name}"
            assert name != "style", f"{tag} has a style attribute (the CSP forbids them)"
            if attribute in ("href", f"{{{XLINK}}}href"):
                assert value.startswith("#"), f"{tag} refers to {value!r}"
                assert value[1:] in internal_ids, f"{tag} refers to a missing {value!r}"
            for target in re.findall(r"url\(\s*['\"]?([^)'\"]*)", value):
                assert target.startswith("#"), f"{tag} loads {target!r}"
            assert "javascript:" not in value.lower(), f"{tag}.{name} = {value!r}"


def test_the_colours_are_fixed(root: ET.Element) -> None:
    """The cards look the same on any page: no ``currentColor``, no CSS variables."""
    text = SPRITE.read_text(encoding="utf-8")
    assert "currentcolor" not in text.lower()
    assert "var(" not in text
    for element in root.iter():
        for attribute in ("fill", "stroke"):
            value = element.get(attribute)
            if value is not None:
                assert value == "none" or HEX_COLOUR.fullmatch(value), value


def test_every_card_paints_its_own_background(symbols: dict[str, ET.Element]) -> None:
    """A card shows on a dark page: its first shape is an opaque card-sized rectangle."""
    tints = []
    for name, symbol in symbols.items():
        first = symbol[0]
        assert local(first.tag) == "rect", name
        assert float(first.get("width", "0")) >= 96, name
        assert float(first.get("height", "0")) >= 136, name
        assert HEX_COLOUR.fullmatch(first.get("fill", "")), name
        assert first.get("fill-opacity") is None, name
        assert first.get("opacity") is None, name
        if name != BACK:
            tints.append(first.get("fill"))
    assert len(set(tints)) == len(SPECIES), f"two species share a background: {tints}"


# --------------------------------------------------------------------------- the faces


@pytest.mark.parametrize("species", SPECIES, ids=[s.value for s in SPECIES])
def test_a_card_shows_the_flock_sizes_of_its_species(
    symbols: dict[str, ET.Element], species: Species
) -> None:
    symbol = symbols[bird_id(species)]
    assert texts(symbol, "flock-small") == [str(species.small_flock)]
    assert texts(symbol, "flock-big") == [str(species.big_flock)]


def test_the_sprite_is_what_the_script_writes_for_the_model(script: ModuleType) -> None:
    assert script.SPRITE == SPRITE
    text = SPRITE.read_text(encoding="utf-8")
    assert script.render(text) == text, "run scripts/make_card_art.py"
    assert script.main(["--check"]) == 0


def test_the_script_follows_a_flock_size_changed_in_the_model(
    script: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "birds.svg"
    shutil.copyfile(SPRITE, copy)
    small, big = Species.MAGPIE.small_flock, Species.MAGPIE.big_flock
    monkeypatch.setattr(Species.MAGPIE, "small_flock", small + 1)
    monkeypatch.setattr(Species.MAGPIE, "big_flock", big + 3)
    assert script.main(["--check"], path=copy) == 1
    assert copy.read_bytes() == SPRITE.read_bytes()  # --check writes nothing
    assert script.main([], path=copy) == 0
    assert script.main(["--check"], path=copy) == 0
    faces = ET.parse(copy).getroot().findall(f"{{{SVG}}}symbol")
    magpie = next(symbol for symbol in faces if symbol.get("id") == bird_id(Species.MAGPIE))
    assert texts(magpie, "flock-small") == [str(small + 1)]
    assert texts(magpie, "flock-big") == [str(big + 3)]
    # Nothing else changed: the drawings, the other cards, the layout of the file.
    before = SPRITE.read_text(encoding="utf-8").splitlines()
    after = copy.read_text(encoding="utf-8").splitlines()
    changed = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    start = before.index(f'<symbol id="{bird_id(Species.MAGPIE)}" viewBox="{VIEW_BOX}">')
    face = before[start : before.index("</symbol>", start)]
    assert changed == [
        (line, line.replace(f">{size}</text>", f">{size + step}</text>"))
        for line in face
        for class_name, size, step in [("flock-small", small, 1), ("flock-big", big, 3)]
        if f'class="{class_name}"' in line
    ]
    assert len(changed) == 2


def test_the_script_refuses_a_sprite_that_does_not_fit_the_model(script: ModuleType) -> None:
    text = SPRITE.read_text(encoding="utf-8")
    no_owl = re.sub(r'<symbol id="bird-owl".*?</symbol>\n', "", text, flags=re.DOTALL)
    with pytest.raises(script.CardArtError, match="no face for \\['owl'\\]"):
        script.render(no_owl)
    extra = text.replace('id="bird-owl"', 'id="bird-ostrich"')
    with pytest.raises(script.CardArtError, match="no species for \\['ostrich'\\]"):
        script.render(extra)
    blank = text.replace('<text class="flock-big"', '<text class="other"', 1)
    with pytest.raises(script.CardArtError, match="bird-flamingo has 0"):
        script.render(blank)


@pytest.mark.parametrize("species", SPECIES, ids=[s.value for s in SPECIES])
def test_a_card_shows_its_species_letter(symbols: dict[str, ET.Element], species: Species) -> None:
    assert texts(symbols[bird_id(species)], "mark") == [LETTERS[species]]


def test_the_species_letters_tell_every_species_apart() -> None:
    assert set(LETTERS) == set(SPECIES)
    assert len(set(LETTERS.values())) == len(SPECIES)


def test_the_card_back_tells_nothing(symbols: dict[str, ET.Element]) -> None:
    back = symbols[BACK]
    assert list(back.iter(f"{{{SVG}}}text")) == []
    assert not any(local(element.tag) == "use" for element in back.iter())


def test_the_text_needs_no_web_font(root: ET.Element) -> None:
    for element in root.iter(f"{{{SVG}}}text"):
        assert element.get("font-family") == "system-ui, sans-serif"


# --------------------------------------------------------------------------- rendered


def test_every_symbol_renders_as_a_distinct_card_in_chromium() -> None:
    """Through ``<use href="birds.svg#...">``, at the phone size: nine different cards."""
    if importlib.util.find_spec("playwright") is None:
        unavailable("the playwright package is not installed")
    executable = chromium_path()
    if executable is None:
        unavailable("no Chromium at /usr/bin/chromium or on the PATH")
    from playwright.sync_api import sync_playwright

    faces = [bird_id(species) for species in SPECIES] + [BACK]
    names = [*faces, "nothing-here"]
    cells = "".join(
        f'<svg id="c{index}" width="44" height="62" viewBox="{VIEW_BOX}">'
        f'<use href="birds.svg#{name}"/></svg>'
        for index, name in enumerate(names)
    )
    page_html = f'<!doctype html><body style="background:#111;margin:8px">{cells}</body>'
    origin = "http://cards.invalid/"

    def answer(route: Route) -> None:
        if route.request.url == origin + "birds.svg":
            route.fulfill(body=SPRITE.read_bytes(), content_type="image/svg+xml")
        elif route.request.url == origin + "index.html":
            route.fulfill(body=page_html, content_type="text/html")
        else:
            route.abort()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, args=["--headless", "--no-sandbox"], timeout=30_000
        )
        try:
            page = browser.new_page(viewport={"width": 640, "height": 100})
            page.route(f"{origin}**", answer)
            page.goto(origin + "index.html", timeout=10_000)
            page.wait_for_load_state("networkidle", timeout=10_000)
            shots = [
                page.locator(f"#c{index}").screenshot(timeout=10_000) for index in range(len(names))
            ]
        finally:
            browser.close()
    *cards, blank = shots
    for name, shot in zip(faces, cards, strict=True):
        assert shot != blank, f"{name} renders as nothing"
    for (one, a), (two, b) in itertools.combinations(zip(faces, cards, strict=True), 2):
        assert a != b, f"{one} and {two} render the same"
