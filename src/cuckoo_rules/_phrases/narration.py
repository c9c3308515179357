"""The narration's phrases: what happened, told as sentences, in every language.

Each language maps a phrase key to a ``str.format`` template; see
:mod:`cuckoo_rules.narration` for the keys' conventions (``_you`` variants, counted
phrases as ``key#category``, ``_object`` counts). :data:`ENGLISH` is the reference: every
other language has exactly its keys (a counted one in each plural category of the
language) and no field it lacks.
"""

# Russian words made only of letters that look Latin are meant: RUF001 is off.

from __future__ import annotations

ENGLISH: dict[str, str] = {
    # Seats: "P1", "P1 greedy" (with a name), and the reader's own seat.
    "seat": "P{seat}",
    "seat_named": "P{seat} {name}",
    "you": "you",
    # The reader as a share's receiver, in the case "dealt_share" needs ("8 to you").
    "you_object": "you",
    # Lists: two items, then longer ones joined from the left ("a, b, c and d").
    "list_two": "{a} and {b}",
    "list_start": "{a}, {b}",
    "list_end": "{a} and {b}",
    "nothing": "nothing",
    # Counted phrases, one per plural category. A count as a verb's object (what is laid,
    # taken, drawn, dealt) is a "_object" phrase: the same words in English and German,
    # the accusative in Russian ("1 сову" beside the "1 сова" of a hand or a list).
    "cards#one": "{count} card",
    "cards#other": "{count} cards",
    "cards_object#one": "{count} card",
    "cards_object#other": "{count} cards",
    "species.flamingo": "flamingo",
    "birds.flamingo#one": "{count} flamingo",
    "birds.flamingo#other": "{count} flamingos",
    "birds_object.flamingo#one": "{count} flamingo",
    "birds_object.flamingo#other": "{count} flamingos",
    "species.owl": "owl",
    "birds.owl#one": "{count} owl",
    "birds.owl#other": "{count} owls",
    "birds_object.owl#one": "{count} owl",
    "birds_object.owl#other": "{count} owls",
    "species.toucan": "toucan",
    "birds.toucan#one": "{count} toucan",
    "birds.toucan#other": "{count} toucans",
    "birds_object.toucan#one": "{count} toucan",
    "birds_object.toucan#other": "{count} toucans",
    "species.duck": "duck",
    "birds.duck#one": "{count} duck",
    "birds.duck#other": "{count} ducks",
    "birds_object.duck#one": "{count} duck",
    "birds_object.duck#other": "{count} ducks",
    "species.parrot": "parrot",
    "birds.parrot#one": "{count} parrot",
    "birds.parrot#other": "{count} parrots",
    "birds_object.parrot#one": "{count} parrot",
    "birds_object.parrot#other": "{count} parrots",
    "species.magpie": "magpie",
    "birds.magpie#one": "{count} magpie",
    "birds.magpie#other": "{count} magpies",
    "birds_object.magpie#one": "{count} magpie",
    "birds_object.magpie#other": "{count} magpies",
    "species.reed_warbler": "reed warbler",
    "birds.reed_warbler#one": "{count} reed warbler",
    "birds.reed_warbler#other": "{count} reed warblers",
    "birds_object.reed_warbler#one": "{count} reed warbler",
    "birds_object.reed_warbler#other": "{count} reed warblers",
    "species.robin": "robin",
    "birds.robin#one": "{count} robin",
    "birds.robin#other": "{count} robins",
    "birds_object.robin#one": "{count} robin",
    "birds_object.robin#other": "{count} robins",
    "side.left": "on the left",
    "side.right": "on the right",
    # Events. {player} is a seat (or "you" in the _you variants).
    "laid": "{player} lays {birds} {side} of row {row}.",
    "laid_you": "{player} lay {birds} {side} of row {row}.",
    "laid_captured": "{player} lays {birds} {side} of row {row} and captures {cards}.",
    "laid_captured_you": "{player} lay {birds} {side} of row {row} and capture {cards}.",
    "captured": "{player} captures {cards} from row {row}.",
    "captured_you": "{player} capture {cards} from row {row}.",
    "refilled": "Row {row} is refilled with {cards}.",
    "drew": "{player} draws {drawn}.",
    "drew_you": "{player} draw {drawn}.",
    "drew_seen_you": "{player} draw {drawn}: {cards}.",
    "declined_draw": "{player} does not draw.",
    "declined_draw_you": "{player} do not draw.",
    "flew_home": "{player} flies {birds} home: {home} to their collection, {discarded} discarded.",
    "flew_home_you": "{player} fly {birds} home: {home} to your collection, {discarded} discarded.",
    "reshuffled": "The discard pile is shuffled into a new draw pile.",
    "round_ended": (
        "Round {round} ends: {player} emptied their hand; {cards} from the other hands "
        "are discarded."
    ),
    "round_ended_you": (
        "Round {round} ends: {player} emptied your hand; {cards} from the other hands "
        "are discarded."
    ),
    "game_started": "The game starts: {player} deals {cards} to each player.",
    "game_started_you": "The game starts: {player} deal {cards} to each player.",
    "game_started_aside": (
        "The game starts: {player} deals {cards} to each player; set aside to the discard "
        "pile: {discarded}."
    ),
    "game_started_aside_you": (
        "The game starts: {player} deal {cards} to each player; set aside to the discard "
        "pile: {discarded}."
    ),
    "dealt": "Round {round}: {player} deals {cards} to each player.",
    "dealt_you": "Round {round}: {player} deal {cards} to each player.",
    "dealt_part": "Round {round}: {player} deals {cards} from this draw pile ({shares}).",
    "dealt_part_you": "Round {round}: {player} deal {cards} from this draw pile ({shares}).",
    "dealt_share": "{number} to {seat}",
    "game_over": "Game over: {winners} wins ({reason}).",
    "game_over_you": "Game over: {winners} win ({reason}).",
    "game_over_shared": "Game over: {winners} share the victory ({reason}).",
    "game_over_shared_you": "Game over: {winners} share the victory ({reason}).",
    "reason.seven_species": "seven species in a collection",
    "reason.two_triples": "two triples in a collection",
    "reason.most_cards": "the cards ran out; most cards in a collection",
}


GERMAN: dict[str, str] = {
    # The reader is "du"; bird names as in the Board Game Circus edition.
    "seat": "P{seat}",
    "seat_named": "P{seat} {name}",
    "you": "du",
    "you_object": "dich",  # "8 an dich"
    "list_two": "{a} und {b}",
    "list_start": "{a}, {b}",
    "list_end": "{a} und {b}",
    "nothing": "nichts",
    # The counts stand where the nominative and the accusative are alike; no sentence
    # puts them in the dative ("mit 3 Tukanen"), so the "_object" forms are the same.
    "cards#one": "{count} Karte",
    "cards#other": "{count} Karten",
    "cards_object#one": "{count} Karte",
    "cards_object#other": "{count} Karten",
    "species.flamingo": "Flamingo",
    "birds.flamingo#one": "{count} Flamingo",
    "birds.flamingo#other": "{count} Flamingos",
    "birds_object.flamingo#one": "{count} Flamingo",
    "birds_object.flamingo#other": "{count} Flamingos",
    "species.owl": "Eule",
    "birds.owl#one": "{count} Eule",
    "birds.owl#other": "{count} Eulen",
    "birds_object.owl#one": "{count} Eule",
    "birds_object.owl#other": "{count} Eulen",
    "species.toucan": "Tukan",
    "birds.toucan#one": "{count} Tukan",
    "birds.toucan#other": "{count} Tukane",
    "birds_object.toucan#one": "{count} Tukan",
    "birds_object.toucan#other": "{count} Tukane",
    "species.duck": "Ente",
    "birds.duck#one": "{count} Ente",
    "birds.duck#other": "{count} Enten",
    "birds_object.duck#one": "{count} Ente",
    "birds_object.duck#other": "{count} Enten",
    "species.parrot": "Papagei",
    "birds.parrot#one": "{count} Papagei",
    "birds.parrot#other": "{count} Papageien",
    "birds_object.parrot#one": "{count} Papagei",
    "birds_object.parrot#other": "{count} Papageien",
    "species.magpie": "Elster",
    "birds.magpie#one": "{count} Elster",
    "birds.magpie#other": "{count} Elstern",
    "birds_object.magpie#one": "{count} Elster",
    "birds_object.magpie#other": "{count} Elstern",
    "species.reed_warbler": "Rohrsänger",
    "birds.reed_warbler#one": "{count} Rohrsänger",
    "birds.reed_warbler#other": "{count} Rohrsänger",
    "birds_object.reed_warbler#one": "{count} Rohrsänger",
    "birds_object.reed_warbler#other": "{count} Rohrsänger",
    "species.robin": "Rotkehlchen",
    "birds.robin#one": "{count} Rotkehlchen",
    "birds.robin#other": "{count} Rotkehlchen",
    "birds_object.robin#one": "{count} Rotkehlchen",
    "birds_object.robin#other": "{count} Rotkehlchen",
    "side.left": "links",
    "side.right": "rechts",
    "laid": "{player} legt {birds} {side} an Reihe {row} an.",
    "laid_you": "{player} legst {birds} {side} an Reihe {row} an.",
    "laid_captured": (
        "{player} legt {birds} {side} an Reihe {row} an und nimmt {cards} auf die Hand."
    ),
    "laid_captured_you": (
        "{player} legst {birds} {side} an Reihe {row} an und nimmst {cards} auf die Hand."
    ),
    "captured": "{player} nimmt {cards} aus Reihe {row} auf die Hand.",
    "captured_you": "{player} nimmst {cards} aus Reihe {row} auf die Hand.",
    "refilled": "Reihe {row} wird aufgefüllt: {cards}.",
    "drew": "{player} zieht {drawn}.",
    "drew_you": "{player} ziehst {drawn}.",
    "drew_seen_you": "{player} ziehst {drawn}: {cards}.",
    "declined_draw": "{player} zieht keine Karten.",
    "declined_draw_you": "{player} ziehst keine Karten.",
    "flew_home": (
        "{player} spielt {birds} als Schwarm aus: {home} in die eigene Sammlung, "
        "{discarded} auf den Ablagestapel."
    ),
    "flew_home_you": (
        "{player} spielst {birds} als Schwarm aus: {home} in deine Sammlung, "
        "{discarded} auf den Ablagestapel."
    ),
    "reshuffled": "Der Ablagestapel wird zu einem neuen Nachziehstapel gemischt.",
    "round_ended": (
        "Runde {round} endet: {player} hat keine Handkarten mehr; die anderen werfen {cards} ab."
    ),
    "round_ended_you": (
        "Runde {round} endet: {player} hast keine Handkarten mehr; die anderen werfen {cards} ab."
    ),
    "game_started": "Das Spiel beginnt: {player} teilt jedem Spieler {cards} aus.",
    "game_started_you": "Das Spiel beginnt: {player} teilst jedem Spieler {cards} aus.",
    "game_started_aside": (
        "Das Spiel beginnt: {player} teilt jedem Spieler {cards} aus; auf den Ablagestapel "
        "gelegt: {discarded}."
    ),
    "game_started_aside_you": (
        "Das Spiel beginnt: {player} teilst jedem Spieler {cards} aus; auf den Ablagestapel "
        "gelegt: {discarded}."
    ),
    "dealt": "Runde {round}: {player} teilt jedem Spieler {cards} aus.",
    "dealt_you": "Runde {round}: {player} teilst jedem Spieler {cards} aus.",
    "dealt_part": "Runde {round}: {player} teilt {cards} von diesem Nachziehstapel aus ({shares}).",
    "dealt_part_you": (
        "Runde {round}: {player} teilst {cards} von diesem Nachziehstapel aus ({shares})."
    ),
    "dealt_share": "{number} an {seat}",
    "game_over": "Spielende: {winners} gewinnt ({reason}).",
    "game_over_you": "Spielende: {winners} gewinnst ({reason}).",
    "game_over_shared": "Spielende: {winners} teilen sich den Sieg ({reason}).",
    "game_over_shared_you": "Spielende: {winners} teilt euch den Sieg ({reason}).",
    "reason.seven_species": "sieben Arten in einer Sammlung",
    "reason.two_triples": "zwei Arten mit je drei Vögeln in einer Sammlung",
    "reason.most_cards": "die Karten sind aufgebraucht; die meisten Karten in einer Sammlung",
}

RUSSIAN: dict[str, str] = {
    # The reader is "вы" (its verbs in the second person plural).
    "seat": "P{seat}",
    "seat_named": "P{seat} {name}",
    "you": "вы",
    "you_object": "вам",  # "8 — вам"
    "list_two": "{a} и {b}",
    "list_start": "{a}, {b}",
    "list_end": "{a} и {b}",
    "nothing": "ничего",
    # A count's noun: "one" 1 сова, 21 сова; "few" 2 совы; "many" 0 сов, 5 сов, 11 сов.
    # The "_object" forms are the accusative (1 сову, 1 тукана); with 2-4 and more they
    # keep the forms of the nominative, as usual with numbers written in digits.
    "cards#one": "{count} карта",
    "cards#few": "{count} карты",
    "cards#many": "{count} карт",
    "cards_object#one": "{count} карту",
    "cards_object#few": "{count} карты",
    "cards_object#many": "{count} карт",
    "species.flamingo": "фламинго",
    "birds.flamingo#one": "{count} фламинго",
    "birds.flamingo#few": "{count} фламинго",
    "birds.flamingo#many": "{count} фламинго",
    "birds_object.flamingo#one": "{count} фламинго",
    "birds_object.flamingo#few": "{count} фламинго",
    "birds_object.flamingo#many": "{count} фламинго",
    "species.owl": "сова",
    "birds.owl#one": "{count} сова",
    "birds.owl#few": "{count} совы",
    "birds.owl#many": "{count} сов",
    "birds_object.owl#one": "{count} сову",
    "birds_object.owl#few": "{count} совы",
    "birds_object.owl#many": "{count} сов",
    "species.toucan": "тукан",
    "birds.toucan#one": "{count} тукан",
    "birds.toucan#few": "{count} тукана",
    "birds.toucan#many": "{count} туканов",
    "birds_object.toucan#one": "{count} тукана",
    "birds_object.toucan#few": "{count} тукана",
    "birds_object.toucan#many": "{count} туканов",
    "species.duck": "утка",
    "birds.duck#one": "{count} утка",
    "birds.duck#few": "{count} утки",
    "birds.duck#many": "{count} уток",
    "birds_object.duck#one": "{count} утку",
    "birds_object.duck#few": "{count} утки",
    "birds_object.duck#many": "{count} уток",
    "species.parrot": "попугай",
    "birds.parrot#one": "{count} попугай",
    "birds.parrot#few": "{count} попугая",
    "birds.parrot#many": "{count} попугаев",
    "birds_object.parrot#one": "{count} попугая",
    "birds_object.parrot#few": "{count} попугая",
    "birds_object.parrot#many": "{count} попугаев",
    "species.magpie": "сорока",
    "birds.magpie#one": "{count} сорока",
    "birds.magpie#few": "{count} сороки",
    "birds.magpie#many": "{count} сорок",
    "birds_object.magpie#one": "{count} сороку",
    "birds_object.magpie#few": "{count} сороки",
    "birds_object.magpie#many": "{count} сорок",
    "species.reed_warbler": "камышовка",
    "birds.reed_warbler#one": "{count} камышовка",
    "birds.reed_warbler#few": "{count} камышовки",
    "birds.reed_warbler#many": "{count} камышовок",
    "birds_object.reed_warbler#one": "{count} камышовку",
    "birds_object.reed_warbler#few": "{count} камышовки",
    "birds_object.reed_warbler#many": "{count} камышовок",
    "species.robin": "малиновка",
    "birds.robin#one": "{count} малиновка",
    "birds.robin#few": "{count} малиновки",
    "birds.robin#many": "{count} малиновок",
    "birds_object.robin#one": "{count} малиновку",
    "birds_object.robin#few": "{count} малиновки",
    "birds_object.robin#many": "{count} малиновок",
    "side.left": "слева",
    "side.right": "справа",
    "laid": "{player} выкладывает {birds} {side} в ряд {row}.",
    "laid_you": "{player} выкладываете {birds} {side} в ряд {row}.",
    "laid_captured": "{player} выкладывает {birds} {side} в ряд {row} и забирает {cards}.",
    "laid_captured_you": "{player} выкладываете {birds} {side} в ряд {row} и забираете {cards}.",
    "captured": "{player} забирает {cards} из ряда {row}.",
    "captured_you": "{player} забираете {cards} из ряда {row}.",
    "refilled": "Ряд {row} пополняется: {cards}.",
    "drew": "{player} берёт из колоды {drawn}.",
    "drew_you": "{player} берёте из колоды {drawn}.",
    "drew_seen_you": "{player} берёте из колоды {drawn}: {cards}.",
    "declined_draw": "{player} не берёт карты.",
    "declined_draw_you": "{player} не берёте карты.",
    "flew_home": (
        "{player} отправляет домой {birds}: {home} — в свою коллекцию, {discarded} — в сброс."
    ),
    "flew_home_you": (
        "{player} отправляете домой {birds}: {home} — в свою коллекцию, {discarded} — в сброс."
    ),
    "reshuffled": "Сброс перемешивается и становится новой колодой.",
    # The present tense, as everywhere: a verb in the past would tell a gender by its ending.
    "round_ended": (
        "Раунд {round} окончен: {player} остаётся без карт в руке; остальные сбрасывают "
        "из рук {cards}."
    ),
    "round_ended_you": (
        "Раунд {round} окончен: {player} остаётесь без карт в руке; остальные сбрасывают "
        "из рук {cards}."
    ),
    "game_started": "Игра начинается: {player} раздаёт каждому игроку {cards}.",
    "game_started_you": "Игра начинается: {player} раздаёте каждому игроку {cards}.",
    "game_started_aside": (
        "Игра начинается: {player} раздаёт каждому игроку {cards}; в сброс отложены "
        "карты: {discarded}."
    ),
    "game_started_aside_you": (
        "Игра начинается: {player} раздаёте каждому игроку {cards}; в сброс отложены "
        "карты: {discarded}."
    ),
    "dealt": "Раунд {round}: {player} раздаёт каждому игроку {cards}.",
    "dealt_you": "Раунд {round}: {player} раздаёте каждому игроку {cards}.",
    "dealt_part": "Раунд {round}: {player} раздаёт {cards} из этой колоды ({shares}).",
    "dealt_part_you": "Раунд {round}: {player} раздаёте {cards} из этой колоды ({shares}).",
    "dealt_share": "{number} — {seat}",
    "game_over": "Игра окончена: {winners} побеждает ({reason}).",
    "game_over_you": "Игра окончена: {winners} побеждаете ({reason}).",
    "game_over_shared": "Игра окончена: {winners} делят победу ({reason}).",
    "game_over_shared_you": "Игра окончена: {winners} делите победу ({reason}).",
    "reason.seven_species": "семь видов в коллекции",
    "reason.two_triples": "два вида по три птицы в коллекции",
    "reason.most_cards": "карты закончились; больше всего карт в коллекции",
}


PHRASES: dict[str, dict[str, str]] = {"en": ENGLISH, "de": GERMAN, "ru": RUSSIAN}
"""The narration's phrases, by language: English (the reference), German and Russian."""
