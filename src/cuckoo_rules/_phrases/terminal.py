"""The terminal front end's phrases (keys starting with ``terminal.``), in every language.

Every text ``cuckoo-rules play``, ``replay`` and ``demo`` print is one of these
templates (the narration's sentences excepted: they are the narration's own keys).
Templates use ``str.format`` named fields; counted phrases are stored per plural
category as ``key#one``/``key#other`` (English, German) and ``key#one``/``key#few``/
``key#many`` (Russian). ``terminal.help`` and the other ``*.help`` texts hold several
lines, each at most 80 columns wide.

Species are shown as three letters (``terminal.abbr.*``), distinct within a language;
the move notation (``lay owl 0 left``) stays English in every language.
"""

from __future__ import annotations

ENGLISH: dict[str, str] = {
    # Species: three letters on the board.
    "terminal.abbr.flamingo": "FLA",
    "terminal.abbr.owl": "OWL",
    "terminal.abbr.toucan": "TOU",
    "terminal.abbr.duck": "DUC",
    "terminal.abbr.parrot": "PAR",
    "terminal.abbr.magpie": "MAG",
    "terminal.abbr.reed_warbler": "REE",
    "terminal.abbr.robin": "ROB",
    # Lists and counts.
    "terminal.cards#one": "{count} card",
    "terminal.cards#other": "{count} cards",
    "terminal.turns#one": "{count} turn",
    "terminal.turns#other": "{count} turns",
    "terminal.rounds#one": "{count} round",
    "terminal.rounds#other": "{count} rounds",
    # The board.
    "terminal.header": (
        "Round {round} · turn {turn} · {state} · draw pile {draw} · discard pile {discard}"
    ),
    "terminal.header_short": "Round {round} · turn {turn} · {state} · {draw}/{discard}",
    "terminal.to_act": "{player} to {phase}",
    "terminal.phase.lay": "lay",
    "terminal.phase.draw": "draw",
    "terminal.phase.flock": "fly a flock",
    "terminal.game_over_state": "game over",
    "terminal.row": "row {row}:",
    "terminal.hand": "Your hand ({count}):",
    "terminal.hand_empty": "Your hand is empty.",
    "terminal.column.hand": "hand",
    "terminal.column.species": "species",
    "terminal.column.triples": "triples",
    "terminal.column.collection": "collection",
    "terminal.column.known": "known in hand",
    "terminal.holds_none": "no {species}",
    # The compact move list.
    "terminal.side_letter.left": "L",
    "terminal.side_letter.right": "R",
    "terminal.do.lay": "lay {birds} {side} of row {row}",
    "terminal.do.captures": "{lay}, capturing {cards}",
    "terminal.do.captures_nothing": "{lay}, capturing nothing",
    "terminal.do.draw": "draw 2 cards",
    "terminal.do.no_draw": "do not draw",
    "terminal.do.fly": "fly {birds} home: {home} to your collection, {discarded} discarded",
    "terminal.do.fly_short": "fly {birds}: {home} home, {discarded} discarded",
    "terminal.do.no_flock": "fly no flock home",
    "terminal.do.pass": "pass",
    "terminal.side.left": "on the left",
    "terminal.side.right": "on the right",
    # Prompts and answers.
    "terminal.prompt": "Move 1-{count} (m: list, help, hint, q: quit)> ",
    "terminal.empty_input": (
        "Type a move's number from 1 to {count}; m shows every move described, help the "
        "commands and the rules."
    ),
    "terminal.no_such_move": "There is no move {number}: type a number from 1 to {count}.",
    "terminal.unreadable": (
        '"{text}" is not a move: type its number from 1 to {count}, or help for the commands.'
    ),
    "terminal.illegal": "{move}: {reason}.",
    "terminal.reason.lay_first": (
        "a turn starts by laying birds (all of one species from your hand, at one end of a row)"
    ),
    "terminal.reason.not_held": "you hold no {species}",
    "terminal.reason.draw_or_pass": (
        "after a lay that took no cards the choice is to draw 2 cards or not"
    ),
    "terminal.reason.flock_size": "{species}: a flock needs {small} birds, you hold {held}",
    "terminal.reason.flock_or_pass": "now you may fly one flock home, or pass",
    "terminal.reason.over": "the game is over",
    "terminal.press_enter": "Press Enter to continue ",
    "terminal.press_enter_end": "Press Enter to finish ",
    "terminal.press_enter_back": "Press Enter to go back to the board ",
    "terminal.thinking": "{player} is thinking...",
    "terminal.commands.quit": "quit exit",
    "terminal.commands.help": "help",
    "terminal.commands.hint": "hint",
    "terminal.commands.log": "log",
    # The full list, the log and the help pages.
    "terminal.list_title": "Every move ({first}-{last} of {count}), as numbered on the board:",
    "terminal.list_prompt": "Enter: more, b: the board, or a move's number> ",
    "terminal.list_prompt_last": "Enter: the board, or a move's number> ",
    "terminal.log_title": "What happened lately (newest last):",
    "terminal.log_empty": "Nothing has happened yet.",
    "terminal.help": (
        "Commands (type one, then Enter)\n"
        "  1, 2, ...   play the move with that number (the list below the board)\n"
        "  m or ?      every move described, on pages      log   what happened lately\n"
        "  hint        the expert's three best moves, with their chances of winning\n"
        "  help        this page        q   leave (you may save; play --resume goes on)\n"
        "  Moves can also be typed in notation: lay owl 0 left, draw, fly owl, pass.\n"
        "The screen\n"
        "  OWL×3 (3/4 ✓1): 3 owls in your hand; a small flock is 3, a big one 4; flying\n"
        "  them home now brings 1 to your collection. 5:1L+2DUC: move 5 lays at the left\n"
        "  of row 1 and takes 2 ducks. Players: hand size, species and triples in the\n"
        "  collection, the collection, cards known in the hand (no OWL: holds no owl).\n"
        "The rules in short\n"
        "  On your turn lay every bird of one species from your hand at one end of a row;\n"
        "  the cards between them and the nearest bird of that species go to your hand.\n"
        "  If you took none, you may draw 2 cards. Then you may fly one flock home: all\n"
        "  birds of a species, if you hold a small flock; 1 joins your collection (2 for\n"
        "  a big flock), the rest are discarded. Seven species, or two species of three\n"
        "  birds, in a collection win. A round ends when a hand is empty: every hand is\n"
        "  discarded, 8 new cards each. When the cards run out, most cards win."
    ),
    "terminal.help_species": "Species:",
    "terminal.hint.header": (
        "Hint (expert, {simulations} simulations): chance of winning after each move"
    ),
    "terminal.hint.footer": "Type a move's number to play it.",
    "terminal.hint.missing": (
        "No hint: the expert needs the batch extra (NumPy and numba): {command}"
    ),
    # Round end and game over.
    "terminal.round_over": "Round {round} is over",
    "terminal.round_ender": "{player} emptied their hand and so ended the round.",
    "terminal.round_ender_you": "You emptied your hand and so ended the round.",
    "terminal.discarded": "Discarded from the hands:",
    "terminal.discard.all#one": "{count} card: {cards}",
    "terminal.discard.all#other": "{count} cards: {cards}",
    "terminal.discard.partly#one": "{count} card, known among them: {cards}",
    "terminal.discard.partly#other": "{count} cards, known among them: {cards}",
    "terminal.discard.unseen#one": "{count} card, unseen",
    "terminal.discard.unseen#other": "{count} cards, unseen",
    "terminal.discard.none": "no cards",
    "terminal.collections": "Collections:",
    "terminal.progress": "{species}/{need_species} species, {triples}/{need_triples} triples",
    "terminal.next_round": "Round {round}. Dealer: {dealer}; first turn: {player}.",
    "terminal.game_over": "Game over",
    "terminal.standings": "Standings:",
    "terminal.lasted": "The game lasted {turns} over {rounds}.",
    "terminal.you_leave": "You leave the game.",
    "terminal.save_ask": "Save the game to a file? (a path, or Enter to skip) ",
    "terminal.saved": "Game saved to {path}",
    "terminal.resume_hint": "Go on with it later: cuckoo-rules play --resume {path}",
    "terminal.cannot_write": "Cannot write {path}: {error}",
    # Replay.
    "terminal.replay.header": "Replay: move {move} of {count}",
    "terminal.replay.start": "Replay: the deal (move 0 of {count})",
    "terminal.replay.prompt": "Enter: next, b: back, g N: go to move N, q: quit> ",
    "terminal.replay.end": "The end of the record: b goes back, g N goes to move N, q quits.",
    "terminal.replay.bad_move": "No move {text}: type g and a number from 0 to {count}.",
    "terminal.replay.spectator": "as a spectator",
    "terminal.replay.seat": "as seen by {player}",
    # The command line.
    "terminal.started": (
        "Seed {seed}; you are player {seat}. Type help for the commands, q to leave."
    ),
    "terminal.resumed": (
        "Resuming {path} at move {move} (seed {seed}); you are player {seat}. Type help "
        "for the commands."
    ),
    "terminal.interrupted": "Interrupted: you leave the game.",
    "terminal.error.read": "cannot read {path}: {error}",
    "terminal.error.resume_over": (
        "{path} holds a finished game: there is nothing to resume (watch it with "
        "cuckoo-rules replay {path})"
    ),
    "terminal.error.resume_seats": (
        "{path} does not say which seat is yours and which bots played (a record saved by "
        "cuckoo-rules play names the seats 'human' and the bots' specs): {detail}"
    ),
    "terminal.error.resume_options": (
        "--resume takes the players, seat, bots, seed and rule variants from the record; "
        "do not give {flags}"
    ),
    # The demo.
    "terminal.demo.seed": "Seed {seed}; replay with: {command}",
    "terminal.demo.setup#one": "CuBirds, {count} player. Options: {options}",
    "terminal.demo.setup#other": "CuBirds, {count} players. Options: {options}",
    "terminal.demo.standard": "standard rules",
    "terminal.demo.turn": "Turn {turn} (round {round}): {player}, {cards} in hand",
    "terminal.demo.collection": "    collection: {cards}",
    "terminal.no_such_row": "There is no row {row}: the rows are 0 to {last}.",
    # Issue 28 (terminal): bot kinds in seat names, a small terminal, the seed.
    "terminal.bot.random": "random",
    "terminal.bot.greedy": "greedy",
    "terminal.bot.ismcts": "ismcts",
    "terminal.bot.expert": "expert",
    "terminal.too_small": (
        "The window is {columns}×{lines}: the game needs {width}×{height}. Enlarge it."
    ),
    "terminal.seed_line": "Seed of this game: {seed}",
    # The review (cuckoo-rules review; play offers it at the end of the game).
    "terminal.review.title": (
        "Game review (expert, {simulations} simulations of each possible move)"
    ),
    "terminal.review.chart": (
        "Chances of winning before each move, estimated from what everyone sees:"
    ),
    "terminal.review.move_number": "move {move}",
    "terminal.review.costliest": (
        "{player}: the costliest moves (on average {average} percentage points lost per decision)"
    ),
    "terminal.review.points#one": "{count} percentage point",
    "terminal.review.points#other": "{count} percentage points",
    "terminal.review.move": "Move {move} (turn {turn}): {points} lost",
    "terminal.review.played": "played: {action}",
    "terminal.review.better": "better: {action}",
    "terminal.review.no_costly": (
        "{player}: every move was within 1 percentage point of the expert's best."
    ),
    "terminal.review.progress": "Reviewing the game: position {done} of {total}",
    "terminal.review.missing": (
        "No review: the expert needs the batch extra (NumPy and numba): {command}"
    ),
    "terminal.review.offer": (
        "Type r for a review of the game: everyone's chances and costliest moves."
    ),
}

GERMAN: dict[str, str] = {
    "terminal.abbr.flamingo": "FLA",
    "terminal.abbr.owl": "EUL",
    "terminal.abbr.toucan": "TUK",
    "terminal.abbr.duck": "ENT",
    "terminal.abbr.parrot": "PAP",
    "terminal.abbr.magpie": "ELS",
    "terminal.abbr.reed_warbler": "ROH",
    "terminal.abbr.robin": "ROT",
    "terminal.cards#one": "{count} Karte",
    "terminal.cards#other": "{count} Karten",
    "terminal.turns#one": "{count} Zug",
    "terminal.turns#other": "{count} Züge",
    "terminal.rounds#one": "{count} Runde",
    "terminal.rounds#other": "{count} Runden",
    "terminal.header": (
        "Runde {round} · Zug {turn} · {state} · Nachziehstapel {draw} · Ablagestapel {discard}"
    ),
    "terminal.header_short": "Runde {round} · Zug {turn} · {state} · {draw}/{discard}",
    "terminal.to_act": "{player}: {phase}",
    "terminal.phase.lay": "anlegen",
    "terminal.phase.draw": "nachziehen?",
    "terminal.phase.flock": "Schwarm ausspielen?",
    "terminal.game_over_state": "Spielende",
    "terminal.row": "Reihe {row}:",
    "terminal.hand": "Deine Hand ({count}):",
    "terminal.hand_empty": "Deine Hand ist leer.",
    "terminal.column.hand": "Hand",
    "terminal.column.species": "Arten",
    "terminal.column.triples": "Drillinge",
    "terminal.column.collection": "Sammlung",
    "terminal.column.known": "bekannt auf der Hand",
    "terminal.holds_none": "ohne {species}",
    "terminal.side_letter.left": "L",
    "terminal.side_letter.right": "R",
    "terminal.do.lay": "{birds} {side} an Reihe {row} anlegen",
    "terminal.do.captures": "{lay} und {cards} auf die Hand nehmen",
    "terminal.do.captures_nothing": "{lay}, ohne Karten aufzunehmen",
    "terminal.do.draw": "2 Karten nachziehen",
    "terminal.do.no_draw": "nicht nachziehen",
    "terminal.do.fly": (
        "{birds} als Schwarm ausspielen: {home} in deine Sammlung, {discarded} auf den Ablagestapel"
    ),
    "terminal.do.fly_short": "{birds} ausspielen: {home} in die Sammlung, {discarded} abgelegt",
    "terminal.do.no_flock": "keinen Schwarm ausspielen",
    "terminal.do.pass": "passen",
    "terminal.side.left": "links",
    "terminal.side.right": "rechts",
    "terminal.prompt": "Aktion 1-{count} (m: Liste, hilfe, tipp, q: Ende)> ",
    "terminal.empty_input": (
        "Tippe die Nummer einer Aktion von 1 bis {count}; m zeigt alle Aktionen "
        "beschrieben, hilfe die Befehle und Regeln."
    ),
    "terminal.no_such_move": "Es gibt keine Aktion {number}: tippe eine Zahl von 1 bis {count}.",
    "terminal.unreadable": (
        "„{text}“ ist keine Aktion: tippe ihre Nummer von 1 bis {count} oder hilfe für die Befehle."
    ),
    "terminal.illegal": "{move}: {reason}.",
    "terminal.reason.lay_first": (
        "ein Zug beginnt mit dem Anlegen (alle Vögel einer Art aus deiner Hand an ein "
        "Ende einer Reihe)"
    ),
    "terminal.reason.not_held": "{species}: davon hast du keine",
    "terminal.reason.draw_or_pass": (
        "hast du beim Anlegen keine Karten aufgenommen, darfst du 2 Karten nachziehen oder nicht"
    ),
    "terminal.reason.flock_size": "{species}: ein Schwarm braucht {small} Vögel, du hast {held}",
    "terminal.reason.flock_or_pass": ("jetzt darfst du einen Schwarm ausspielen oder passen"),
    "terminal.reason.over": "das Spiel ist vorbei",
    "terminal.press_enter": "Weiter mit der Eingabetaste ",
    "terminal.press_enter_end": "Beenden mit der Eingabetaste ",
    "terminal.press_enter_back": "Zurück zum Spielfeld mit der Eingabetaste ",
    "terminal.thinking": "{player} überlegt ...",
    "terminal.commands.quit": "ende",
    "terminal.commands.help": "hilfe",
    "terminal.commands.hint": "tipp",
    "terminal.commands.log": "verlauf",
    "terminal.list_title": (
        "Alle Aktionen ({first}-{last} von {count}), nummeriert wie unter dem Spielfeld:"
    ),
    "terminal.list_prompt": "Eingabe: weiter, b: Spielfeld oder die Nummer einer Aktion> ",
    "terminal.list_prompt_last": "Eingabe: Spielfeld oder die Nummer einer Aktion> ",
    "terminal.log_title": "Was zuletzt geschah (das Neueste unten):",
    "terminal.log_empty": "Noch ist nichts geschehen.",
    "terminal.help": (
        "Befehle (eintippen, dann Eingabetaste)\n"
        "  1, 2, ...   die Aktion mit dieser Nummer (die Liste unter dem Spielfeld)\n"
        "  m oder ?    alle Aktionen beschrieben, seitenweise   verlauf   was geschah\n"
        "  tipp        die drei besten Aktionen des Experten, mit ihren Gewinnchancen\n"
        "  hilfe       diese Seite      q   aufhören (speichern; play --resume: weiter)\n"
        "  Aktionen gehen auch in der (englischen) Notation: lay owl 0 left, draw, pass.\n"
        "Der Bildschirm\n"
        "  EUL×3 (3/4 ✓1): 3 Eulen auf der Hand; kleiner Schwarm 3, großer 4; jetzt\n"
        "  ausgespielt, bringen sie 1 in die Sammlung. 5:1L+2ENT: Aktion 5 legt links an\n"
        "  Reihe 1 an und nimmt 2 Enten auf die Hand. Spieler: Handkarten, Arten und\n"
        "  Drillinge der Sammlung, die Sammlung, bekannte Karten (ohne EUL: keine Eule).\n"
        "Die Regeln in Kürze\n"
        "  Lege in deinem Zug alle Vögel einer Art aus deiner Hand an ein Ende einer\n"
        "  Reihe an; die Karten zwischen ihnen und dem nächsten Vogel dieser Art nimmst\n"
        "  du auf die Hand. Nimmst du keine auf, darfst du 2 Karten nachziehen. Dann\n"
        "  darfst du einen Schwarm ausspielen: alle Vögel einer Art, ab einem kleinen\n"
        "  Schwarm; 1 kommt in deine Sammlung (2 bei einem großen), der Rest auf den\n"
        "  Ablagestapel. Sieben Arten oder zwei Arten mit je drei Vögeln in der Sammlung\n"
        "  gewinnen. Ist eine Hand leer, endet die Runde: alle Handkarten auf den\n"
        "  Ablagestapel, je 8 neue. Gehen die Karten aus, gewinnt die größte Sammlung."
    ),
    "terminal.help_species": "Arten:",
    "terminal.hint.header": (
        "Tipp (Experte, {simulations} Simulationen): Gewinnchance nach jeder Aktion"
    ),
    "terminal.hint.footer": "Tippe die Nummer einer Aktion, um sie zu spielen.",
    "terminal.hint.missing": (
        "Kein Tipp: der Experte braucht das Extra batch (NumPy und numba): {command}"
    ),
    "terminal.round_over": "Runde {round} ist vorbei",
    "terminal.round_ender": "{player} hat die Hand geleert und damit die Runde beendet.",
    "terminal.round_ender_you": "Du hast deine Hand geleert und damit die Runde beendet.",
    "terminal.discarded": "Von den Händen abgeworfen:",
    "terminal.discard.all#one": "{count} Karte: {cards}",
    "terminal.discard.all#other": "{count} Karten: {cards}",
    "terminal.discard.partly#one": "{count} Karte, bekannt davon: {cards}",
    "terminal.discard.partly#other": "{count} Karten, bekannt davon: {cards}",
    "terminal.discard.unseen#one": "{count} Karte, ungesehen",
    "terminal.discard.unseen#other": "{count} Karten, ungesehen",
    "terminal.discard.none": "keine Karten",
    "terminal.collections": "Sammlungen:",
    "terminal.progress": "{species}/{need_species} Arten, {triples}/{need_triples} Drillinge",
    "terminal.next_round": "Runde {round}. Kartengeber: {dealer}; erster Zug: {player}.",
    "terminal.game_over": "Spielende",
    "terminal.standings": "Ergebnis:",
    "terminal.lasted": "Das Spiel dauerte {turns} in {rounds}.",
    "terminal.you_leave": "Du verlässt das Spiel.",
    "terminal.save_ask": (
        "Das Spiel in einer Datei speichern? (ein Pfad oder Eingabetaste für nein) "
    ),
    "terminal.saved": "Spiel gespeichert in {path}",
    "terminal.resume_hint": "Später weiterspielen: cuckoo-rules play --resume {path}",
    "terminal.cannot_write": "{path} lässt sich nicht schreiben: {error}",
    "terminal.replay.header": "Wiederholung: Aktion {move} von {count}",
    "terminal.replay.start": "Wiederholung: das Austeilen (Aktion 0 von {count})",
    "terminal.replay.prompt": "Eingabe: weiter, b: zurück, g N: zu Aktion N, q: Ende> ",
    "terminal.replay.end": "Ende der Aufzeichnung: b geht zurück, g N zu Aktion N, q beendet.",
    "terminal.replay.bad_move": (
        "Es gibt keine Aktion {text}: tippe g und eine Zahl von 0 bis {count}."
    ),
    "terminal.replay.spectator": "als Zuschauer",
    "terminal.replay.seat": "aus der Sicht von {player}",
    "terminal.started": (
        "Startwert {seed}; du bist Spieler {seat}. Tippe hilfe für die Befehle, q zum Aufhören."
    ),
    "terminal.resumed": (
        "Weiter mit {path} bei Aktion {move} (Startwert {seed}); du bist Spieler {seat}. Tippe "
        "hilfe für die Befehle."
    ),
    "terminal.interrupted": "Abgebrochen: du verlässt das Spiel.",
    "terminal.error.read": "{path} lässt sich nicht lesen: {error}",
    "terminal.error.resume_over": (
        "{path} enthält ein beendetes Spiel: da ist nichts fortzusetzen (ansehen mit "
        "cuckoo-rules replay {path})"
    ),
    "terminal.error.resume_seats": (
        "{path} sagt nicht, welcher Platz deiner ist und welche Bots spielten (eine von "
        "cuckoo-rules play gespeicherte Aufzeichnung nennt die Plätze 'human' und die "
        "Bot-Angaben): {detail}"
    ),
    "terminal.error.resume_options": (
        "--resume nimmt Spieler, Platz, Bots, Startwert und Regelvarianten aus der "
        "Aufzeichnung; gib {flags} nicht an"
    ),
    "terminal.demo.seed": "Startwert {seed}; noch einmal mit: {command}",
    "terminal.demo.setup#one": "CuBirds, {count} Spieler. Optionen: {options}",
    "terminal.demo.setup#other": "CuBirds, {count} Spieler. Optionen: {options}",
    "terminal.demo.standard": "Standardregeln",
    "terminal.demo.turn": "Zug {turn} (Runde {round}): {player}, {cards} auf der Hand",
    "terminal.demo.collection": "    Sammlung: {cards}",
    "terminal.no_such_row": (
        "Es gibt keine Reihe {row}: die Reihen sind von 0 bis {last} nummeriert."
    ),
    "terminal.bot.random": "zufällig",
    "terminal.bot.greedy": "gierig",
    "terminal.bot.ismcts": "ismcts",
    "terminal.bot.expert": "Experte",
    "terminal.too_small": (
        "Das Fenster ist {columns}×{lines} groß, das Spiel braucht {width}×{height}: vergrößere es."
    ),
    "terminal.seed_line": "Startwert dieses Spiels: {seed}",
    "terminal.review.title": (
        "Spielanalyse (Experte, {simulations} Simulationen je mögliche Aktion)"
    ),
    "terminal.review.chart": "Gewinnchancen vor jeder Aktion, geschätzt aus dem, was alle sehen:",
    "terminal.review.move_number": "Aktion {move}",
    "terminal.review.costliest": (
        "{player}: die teuersten Aktionen (im Schnitt {average} Prozentpunkte Verlust je "
        "Entscheidung)"
    ),
    "terminal.review.points#one": "{count} Prozentpunkt",
    "terminal.review.points#other": "{count} Prozentpunkte",
    "terminal.review.move": "Aktion {move} (Zug {turn}): {points} verloren",
    "terminal.review.played": "gespielt: {action}",
    "terminal.review.better": "besser: {action}",
    "terminal.review.no_costly": (
        "{player}: jede Aktion lag weniger als 1 Prozentpunkt hinter der besten des Experten."
    ),
    "terminal.review.progress": "Spielanalyse: Stellung {done} von {total}",
    "terminal.review.missing": (
        "Keine Analyse: der Experte braucht das Extra batch (NumPy und numba): {command}"
    ),
    "terminal.review.offer": (
        "Tippe r für eine Analyse des Spiels: die Chancen aller und ihre teuersten Aktionen."
    ),
}

RUSSIAN: dict[str, str] = {
    "terminal.abbr.flamingo": "ФЛА",
    "terminal.abbr.owl": "СОВ",
    "terminal.abbr.toucan": "ТУК",
    "terminal.abbr.duck": "УТК",
    "terminal.abbr.parrot": "ПОП",
    "terminal.abbr.magpie": "СОР",
    "terminal.abbr.reed_warbler": "КАМ",
    "terminal.abbr.robin": "МАЛ",
    "terminal.cards#one": "{count} карта",
    "terminal.cards#few": "{count} карты",
    "terminal.cards#many": "{count} карт",
    "terminal.turns#one": "{count} ход",
    "terminal.turns#few": "{count} хода",
    "terminal.turns#many": "{count} ходов",
    "terminal.rounds#one": "{count} раунд",
    "terminal.rounds#few": "{count} раунда",
    "terminal.rounds#many": "{count} раундов",
    "terminal.header": "Раунд {round} · ход {turn} · {state} · колода {draw} · сброс {discard}",
    "terminal.header_short": "Раунд {round} · ход {turn} · {state} · {draw}/{discard}",
    "terminal.to_act": "{player}: {phase}",
    "terminal.phase.lay": "выкладка",
    "terminal.phase.draw": "добор?",
    "terminal.phase.flock": "отправить стаю?",
    "terminal.game_over_state": "игра окончена",
    "terminal.row": "ряд {row}:",
    "terminal.hand": "Ваша рука ({count}):",
    "terminal.hand_empty": "Ваша рука пуста.",
    "terminal.column.hand": "рука",
    "terminal.column.species": "виды",
    "terminal.column.triples": "тройки",
    "terminal.column.collection": "коллекция",
    "terminal.column.known": "известно в руке",
    "terminal.holds_none": "нет {species}",
    "terminal.side_letter.left": "Л",
    "terminal.side_letter.right": "П",
    "terminal.do.lay": "выложить {birds} {side} в ряд {row}",
    "terminal.do.captures": "{lay} и забрать {cards}",
    "terminal.do.captures_nothing": "{lay}, ничего не забирая",
    "terminal.do.draw": "взять 2 карты",
    "terminal.do.no_draw": "не брать карты",
    "terminal.do.fly": "отправить стаю домой ({birds}): {home} в коллекцию, {discarded} в сброс",
    "terminal.do.fly_short": "стая ({birds}): {home} в коллекцию, {discarded} в сброс",
    "terminal.do.no_flock": "не отправлять стаю",
    "terminal.do.pass": "пас",
    "terminal.side.left": "слева",
    "terminal.side.right": "справа",
    "terminal.prompt": "Действие 1-{count} (m: список, помощь, совет, q: выход)> ",
    "terminal.empty_input": (
        "Введите номер действия от 1 до {count}; m покажет все действия с описанием, "
        "помощь — команды и правила."
    ),
    "terminal.no_such_move": "Действия {number} нет: введите число от 1 до {count}.",
    "terminal.unreadable": (
        "«{text}» — не действие: введите его номер от 1 до {count} или «помощь» для списка команд."
    ),
    "terminal.illegal": "{move}: {reason}.",
    "terminal.reason.lay_first": (
        "ход начинается с выкладки (все птицы одного вида из руки на один край ряда)"
    ),
    "terminal.reason.not_held": "у вас нет вида «{species}»",
    "terminal.reason.draw_or_pass": (
        "если при выкладке вы не забрали ни одной карты, можно взять 2 карты или не брать"
    ),
    "terminal.reason.flock_size": "{species}: для стаи нужно {small}, а у вас {held}",
    "terminal.reason.flock_or_pass": "сейчас можно отправить одну стаю домой или спасовать",
    "terminal.reason.over": "игра окончена",
    "terminal.press_enter": "Нажмите Enter, чтобы продолжить ",
    "terminal.press_enter_end": "Нажмите Enter, чтобы завершить ",
    "terminal.press_enter_back": "Нажмите Enter, чтобы вернуться к игровому полю ",
    "terminal.thinking": "{player} думает...",
    "terminal.commands.quit": "выход",
    "terminal.commands.help": "помощь",
    "terminal.commands.hint": "совет",
    "terminal.commands.log": "журнал",
    "terminal.list_title": (
        "Все действия ({first}-{last} из {count}), с номерами как под игровым полем:"
    ),
    "terminal.list_prompt": "Enter: дальше, b: поле или номер действия> ",
    "terminal.list_prompt_last": "Enter: поле или номер действия> ",
    "terminal.log_title": "Что произошло недавно (последнее внизу):",
    "terminal.log_empty": "Пока ничего не произошло.",
    "terminal.help": (
        "Команды (введите и нажмите Enter)\n"
        "  1, 2, ...   выполнить действие с этим номером (список под игровым полем)\n"
        "  m или ?     все действия с описанием, по страницам    журнал   что произошло\n"
        "  совет       три лучших действия эксперта и шансы на победу после них\n"
        "  помощь      эта страница      q   выйти (можно сохранить; play --resume)\n"
        "  Действия можно вводить и в (английской) нотации: lay owl 0 left, draw, pass.\n"
        "Экран\n"
        "  СОВ×3 (3/4 ✓1): 3 совы в руке; малая стая — 3, большая — 4; стая сейчас\n"
        "  принесла бы 1 карту в коллекцию. 5:1Л+2УТК: действие 5 выкладывает слева\n"
        "  в ряд 1 и забирает 2 утки. Игроки: карт в руке, виды и тройки в коллекции,\n"
        "  сама коллекция, известные карты в руке (нет СОВ: сов в руке нет).\n"
        "Правила вкратце\n"
        "  В свой ход выложите всех птиц одного вида из руки на один край ряда; карты\n"
        "  между ними и ближайшей птицей того же вида вы забираете в руку. Если вы ничего\n"
        "  не забрали, можно взять 2 карты. Затем можно отправить одну стаю домой: всех\n"
        "  птиц одного вида, если их не меньше малой стаи; 1 идёт в коллекцию (2 за\n"
        "  большую стаю), остальные в сброс. Побеждает коллекция из семи видов или из\n"
        "  двух видов по три птицы. Раунд кончается, когда чья-то рука пуста: все руки в\n"
        "  сброс, каждому 8 новых карт. Когда карты кончаются, побеждает самая большая\n"
        "  коллекция."
    ),
    "terminal.help_species": "Виды:",
    "terminal.hint.header": (
        "Совет (эксперт, симуляций: {simulations}): шанс победы после каждого действия"
    ),
    "terminal.hint.footer": "Введите номер действия, чтобы выполнить его.",
    "terminal.hint.missing": (
        "Совета нет: эксперту нужно дополнение batch (NumPy и numba): {command}"
    ),
    "terminal.round_over": "Раунд {round} окончен",
    "terminal.round_ender": "{player}: рука опустела, и раунд закончился.",
    "terminal.round_ender_you": "Ваша рука опустела, и раунд закончился.",
    "terminal.discarded": "Сброшено из рук:",
    "terminal.discard.all#one": "{count} карта: {cards}",
    "terminal.discard.all#few": "{count} карты: {cards}",
    "terminal.discard.all#many": "{count} карт: {cards}",
    "terminal.discard.partly#one": "{count} карта, из них известны: {cards}",
    "terminal.discard.partly#few": "{count} карты, из них известны: {cards}",
    "terminal.discard.partly#many": "{count} карт, из них известны: {cards}",
    "terminal.discard.unseen#one": "{count} карта, не показана",
    "terminal.discard.unseen#few": "{count} карты, не показаны",
    "terminal.discard.unseen#many": "{count} карт, не показаны",
    "terminal.discard.none": "ни одной карты",
    "terminal.collections": "Коллекции:",
    "terminal.progress": "виды {species}/{need_species}, тройки {triples}/{need_triples}",
    "terminal.next_round": "Раунд {round}. Раздающий: {dealer}; первый ход: {player}.",
    "terminal.game_over": "Игра окончена",
    "terminal.standings": "Итоги:",
    "terminal.lasted": "Игра длилась {rounds}, всего {turns}.",
    "terminal.you_leave": "Вы выходите из игры.",
    "terminal.save_ask": "Сохранить игру в файл? (путь или Enter, чтобы не сохранять) ",
    "terminal.saved": "Игра сохранена в {path}",
    "terminal.resume_hint": "Продолжить позже: cuckoo-rules play --resume {path}",
    "terminal.cannot_write": "Не удаётся записать {path}: {error}",
    "terminal.replay.header": "Повтор: действие {move} из {count}",
    "terminal.replay.start": "Повтор: раздача (действие 0 из {count})",
    "terminal.replay.prompt": "Enter: дальше, b: назад, g N: к действию N, q: выход> ",
    "terminal.replay.end": "Конец записи: b — назад, g N — к действию N, q — выход.",
    "terminal.replay.bad_move": "Действия {text} нет: введите g и число от 0 до {count}.",
    "terminal.replay.spectator": "глазами зрителя",
    "terminal.replay.seat": "глазами: {player}",
    "terminal.started": (
        "Зерно {seed}; вы игрок {seat}. Введите «помощь» для списка команд, q — выход."
    ),
    "terminal.resumed": (
        "Продолжаем {path} с действия {move} (зерно {seed}); вы игрок {seat}. Введите «помощь» "
        "для списка команд."
    ),
    "terminal.interrupted": "Прервано: вы выходите из игры.",
    "terminal.error.read": "не удаётся прочитать {path}: {error}",
    "terminal.error.resume_over": (
        "в {path} законченная игра: продолжать нечего (посмотреть: cuckoo-rules replay {path})"
    ),
    "terminal.error.resume_seats": (
        "в {path} не сказано, какое место ваше и какие боты играли (запись, сохранённая "
        "cuckoo-rules play, называет места 'human' и описаниями ботов): {detail}"
    ),
    "terminal.error.resume_options": (
        "--resume берёт игроков, место, ботов, зерно и варианты правил из записи; "
        "не указывайте {flags}"
    ),
    "terminal.demo.seed": "Зерно {seed}; повторить: {command}",
    "terminal.demo.setup#one": "CuBirds, {count} игрок. Настройки: {options}",
    "terminal.demo.setup#few": "CuBirds, {count} игрока. Настройки: {options}",
    "terminal.demo.setup#many": "CuBirds, {count} игроков. Настройки: {options}",
    "terminal.demo.standard": "стандартные правила",
    "terminal.demo.turn": "Ход {turn} (раунд {round}): {player}, в руке {cards}",
    "terminal.demo.collection": "    коллекция: {cards}",
    "terminal.no_such_row": "Ряда {row} нет: ряды нумеруются от 0 до {last}.",
    "terminal.bot.random": "случайный",
    "terminal.bot.greedy": "жадный",
    "terminal.bot.ismcts": "ismcts",
    "terminal.bot.expert": "эксперт",
    "terminal.too_small": "Окно {columns}×{lines}, а игре нужно {width}×{height}: увеличьте его.",
    "terminal.seed_line": "Зерно этой игры: {seed}",
    "terminal.review.title": (
        "Разбор игры (эксперт, симуляций на каждое возможное действие: {simulations})"
    ),
    "terminal.review.chart": "Шансы на победу перед каждым действием, по тому, что видят все:",
    "terminal.review.move_number": "действие {move}",
    "terminal.review.costliest": (
        "{player}: худшие действия (средняя потеря за решение — {average} процентного пункта)"
    ),
    "terminal.review.points#one": "{count} процентный пункт",
    "terminal.review.points#few": "{count} процентных пункта",
    "terminal.review.points#many": "{count} процентных пунктов",
    "terminal.review.move": "Действие {move} (ход {turn}): шанс на победу ниже на {points}",
    "terminal.review.played": "выбрано: {action}",
    "terminal.review.better": "лучше: {action}",
    "terminal.review.no_costly": (
        "{player}: каждое действие хуже лучшего по оценке эксперта менее чем на 1 процентный пункт."
    ),
    "terminal.review.progress": "Разбор игры: позиция {done} из {total}",
    "terminal.review.missing": (
        "Разбора нет: эксперту нужно дополнение batch (NumPy и numba): {command}"
    ),
    "terminal.review.offer": (
        "Введите r для разбора игры: шансы всех игроков и их худшие действия."
    ),
}

PHRASES: dict[str, dict[str, str]] = {"en": ENGLISH, "de": GERMAN, "ru": RUSSIAN}
"""The terminal front end's phrases, by language."""
