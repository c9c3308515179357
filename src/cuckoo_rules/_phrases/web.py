"""The browser client's phrases (keys starting with ``web.``), in every language.

The client (``static/app.js`` and the ES modules of ``static/js/`` it imports) shows no
text of its own: it reads these templates from ``GET /api/phrases/<lang>`` (with the
narration's, for the bird names and lists) and fills their ``{name}`` fields. A counted
phrase is stored per plural category (``key#one``, ``key#other``; Russian ``key#one``,
``key#few``, ``key#many``), the categories of JavaScript's ``Intl.PluralRules``. The
rule variants' words (``web.option.<name>``, ``web.option.<name>.help``,
``web.choice.<name>.<value>``) are in English those of
:func:`cuckoo_rules.options.option_info`, which a test checks. Row numbers are those of
the narration (from 0).
"""

from __future__ import annotations

ENGLISH: dict[str, str] = {
    # The page.
    "web.brand": "CuBirds",
    "web.page_title": "CuBirds · cuckoo-rules",
    "web.title_turn": "Your turn · CuBirds",
    "web.title_over": "Game over · CuBirds",
    "web.tagline": "Play against bots or friends, with the cuckoo-rules engine.",
    "web.skip": "Skip to the game",
    "web.language": "Language",
    "web.dark_mode": "Dark mode",
    "web.dismiss": "Dismiss",
    # The start screen.
    "web.new_game": "New game",
    "web.your_name": "Your name",
    "web.name_placeholder": "optional",
    "web.num_players": "Number of players",
    "web.seats": "Seats",
    "web.seat_you": "Seat 0: you",
    "web.seat_n": "Seat {seat}",
    "web.seat_name": "Name of seat {seat}",
    "web.human_seat": "Human (share a link)",
    # The initial in the top left corner of a card (distinct for each species).
    "web.initial.flamingo": "F",
    "web.initial.owl": "O",
    "web.initial.toucan": "T",
    "web.initial.duck": "D",
    "web.initial.parrot": "P",
    "web.initial.magpie": "M",
    "web.initial.reed_warbler": "W",
    "web.initial.robin": "R",
    "web.bot_kind": "Bot: {name}",
    "web.bot.random": "Random bot",
    "web.bot.greedy": "Greedy bot",
    "web.bot.ismcts": "Search bot (ismcts)",
    "web.bot.expert": "Expert bot",
    "web.lobby_check": "List in the lobby",
    "web.lobby_check_help": "Anyone may then take a free human seat from the list of open tables.",
    "web.seed": "Seed",
    "web.seed_optional": "(optional, for a repeatable deal)",
    "web.seed_help": "A whole number; leave empty for a random deal.",
    "web.seed_invalid": "The seed must be a whole number from 0 to {max}.",
    "web.variants": "Rule variants",
    "web.standard": "{text} (standard)",
    "web.start": "Start",
    # The lobby.
    "web.lobby_title": "Open tables",
    "web.refresh": "Refresh",
    "web.lobby_empty": (
        "No table is waiting for players. Start one with “List in the lobby” ticked."
    ),
    "web.lobby_unavailable": "The list of open tables cannot be read now.",
    "web.free_seat": "free seat",
    "web.free_seats#one": "{count} free seat",
    "web.free_seats#other": "{count} free seats",
    "web.players_n#one": "{count} player",
    "web.players_n#other": "{count} players",
    "web.join": "Join",
    "web.join_label": "Join the table of {name}",
    # The status bar.
    "web.game": "Game",
    "web.loading": "Loading the table…",
    "web.your_turn": "Your turn: {doing}.",
    "web.other_turn": "{player} to play ({doing})…",
    "web.waiting_join": "Waiting for someone to take the seat of {player}…",
    "web.watching_note": "You are watching.",
    "web.expired": "This table expired: nobody moved for too long.",
    "web.thinking": "{player} is thinking…",
    "web.thinking_badge": "thinking",
    "web.live_off": "Live updates are interrupted: the table is checked every second.",
    "web.phase.lay": "lay birds",
    "web.phase.draw": "decide whether to draw",
    "web.phase.flock": "fly a flock home or pass",
    "web.phase.game_over": "game over",
    "web.draw_pile": "Draw pile: {count}",
    "web.discard_pile": "Discard pile: {count}",
    "web.round": "Round",
    "web.turn": "Turn",
    "web.you_are": "You are",
    "web.spectator": "watching",
    # The end of the game.
    "web.game_over": "Game over.",
    "web.reason": "Reason: {reason}.",
    "web.final_collections": "Final collections",
    "web.standing": "{player}: {progress}",
    "web.standing_winner": "{player} (winner): {progress}",
    "web.deal": (
        "Dealt from seed {seed} (salt {salt}), committed to before the first move as "
        "{commitment}: check it with cuckoo_rules.fairness.check_deal."
    ),
    "web.check_deal": "Check this deal",
    "web.rematch": "Rematch",
    "web.rematch_ready": "A rematch has started at a new table, with the same seats.",
    "web.rematch_follow": "Play the rematch",
    "web.rematch_watch": "Watch the rematch",
    "web.notices": "Notices",
    "web.notice": "Move {move}: {text}",
    "web.stand_in": (
        "The bot of {who} failed twice ({failures}); the greedy bot played this move instead."
    ),
    # Sharing.
    "web.invite": "Invite and watch",
    "web.share_seat": "Seat {seat} ({player}) is free: send this link to a friend",
    "web.share_watch": "Spectators: watch this table",
    "web.copy": "Copy link",
    "web.copied": "Copied",
    "web.copy_prompt": "Copy this link:",
    # The rows.
    "web.rows": "Rows",
    "web.row_label": "Row {row}, left to right: {cards}",
    "web.cards#one": "{count} card",
    "web.cards#other": "{count} cards",
    "web.end_left": "Left end of row {row}",
    "web.end_right": "Right end of row {row}",
    "web.not_here": "the species chosen cannot be laid here",
    "web.choose_first": "choose a species in your hand first",
    "web.lay_left": "Lay {birds} on the left of row {row}",
    "web.lay_right": "Lay {birds} on the right of row {row}",
    "web.captures": "captures {cards}",
    "web.captures_nothing": "captures nothing",
    "web.captures_short#one": "captures {count}",
    "web.captures_short#other": "captures {count}",
    "web.refilled": "the row is then refilled",
    "web.refilled_short": "refill",
    "web.may_draw": "then you may draw",
    "web.may_draw_short": "may draw",
    "web.maybe_draw": "then you may be able to draw",
    "web.maybe_draw_short": "may be able to draw",
    "web.where_left": "Left of row {row}",
    "web.where_right": "Right of row {row}",
    "web.lay_group": "Lay {birds}",
    # The moves and the hand.
    "web.moves": "Your moves",
    "web.prompt_species": "Choose a species in your hand…",
    "web.prompt_end": "…then an end of a row.",
    "web.waiting": "Waiting for the other players…",
    "web.draw": "Draw 2 cards",
    "web.pass": "Pass",
    "web.pass.draw": "Do not draw",
    "web.pass.flock": "No flock: pass",
    "web.hint.no_flock": "You fly no flock home.",
    "web.fly": "Fly {birds} home ({home} to your collection, {discarded} discarded)",
    "web.all_moves#one": "All legal moves ({count})",
    "web.all_moves#other": "All legal moves ({count})",
    "web.hand_title#one": "Your hand: {count} card",
    "web.hand_title#other": "Your hand: {count} cards",
    "web.hand_empty": "Your hand is empty.",
    "web.hand_choose": "Choose a species, then an end of a row.",
    "web.hand_selected": "{species}: now choose an end of a row (Escape cancels).",
    "web.hand_flocks": (
        "On each card: the cards a flock needs to fly 1 / 2 birds home; ✓: enough now."
    ),
    "web.flock_sizes": "a flock of {small} flies 1 bird home, of {big} 2 birds",
    "web.flock_ready": "enough to fly home",
    "web.hint": "Hint",
    "web.hint_busy": "Thinking…",
    "web.hint_loading": "The expert is thinking…",
    "web.hint_title": (
        "The expert's best moves ({simulations} simulations), with your estimated chance "
        "of winning after each. Click one to play it."
    ),
    # The players.
    "web.players": "Players",
    "web.you": "you",
    "web.to_play": "to play",
    "web.winner": "winner",
    "web.hand_size#one": "{count} card in hand",
    "web.hand_size#other": "{count} cards in hand",
    "web.known": "known: {cards}",
    "web.progress": "{species}/{win_species} species · {triples}/{win_triples} triples · {cards}",
    "web.collection": "Collection",
    "web.no_birds": "No birds yet",
    # The log and the key.
    "web.log": "What happened",
    "web.log_label": "Game log",
    "web.log_empty": "Nothing has happened yet.",
    "web.key": "Species and flock sizes",
    "web.key_caption": "The species, their number of cards and the flocks that fly home",
    "web.key_species": "Species",
    "web.key_cards": "Cards",
    "web.key_small": "Small flock (1 bird)",
    "web.key_big": "Big flock (2 birds)",
    # Errors.
    "web.error.network": "Cannot reach the server. Is it still running?",
    "web.error.unreadable": "The server sent an unreadable answer.",
    "web.error.not_your_turn": "it is not your turn",
    "web.error.stale_move": "this move was already played: the table is read again",
    "web.error.game_over": "the game is over",
    "web.error.expired": "the table expired: no move for too long",
    "web.error.no_free_seat": "every seat of this table is taken",
    "web.error.seat_taken": "this seat is taken",
    "web.error.invitation_used": (
        "this invitation was used already (it works once): ask for a new one"
    ),
    "web.error.detail": "{what}: {detail}",
    "web.error.status": "Error {status}",
    "web.error.400": "Bad request",
    "web.error.401": "This seat's link is not valid",
    "web.error.403": "Not allowed",
    "web.error.404": "No such table",
    "web.error.409": "Not allowed now",
    "web.error.413": "Too large",
    "web.error.429": "Too many tables",
    "web.error.501": "Not available on this server",
    "web.error.503": "The server cannot store moves now",
    # The rule variants (option_info's words).
    "web.option.initial_row_length": "Cards in each row at setup",
    "web.option.initial_row_length.help": (
        "How many cards each row holds at setup (4 is SEED0's reading)."
    ),
    "web.choice.initial_row_length.3": "3 cards",
    "web.choice.initial_row_length.4": "4 cards",
    "web.option.setup_duplicates_to": "Cards set aside while building the rows go to",
    "web.option.setup_duplicates_to.help": "Where the cards set aside while building the rows go.",
    "web.choice.setup_duplicates_to.discard": "the discard pile",
    "web.choice.setup_duplicates_to.draw_pile": "the draw pile, shuffled back in",
    "web.option.optional_draw_if_adjacent": "Offer the draw after a lay next to the same species",
    "web.option.optional_draw_if_adjacent.help": (
        "Whether the optional draw is offered after a lay next to birds of the same "
        "species that captured nothing (SEED2 says no)."
    ),
    "web.choice.optional_draw_if_adjacent.true": "yes, whenever the lay took no cards",
    "web.choice.optional_draw_if_adjacent.false": (
        "no, only when the laid species was absent from the row"
    ),
    "web.option.refill_trigger": "A row left with one species is refilled after",
    "web.option.refill_trigger.help": (
        "What refills a row left with a single species (SEED2 read literally refills "
        "after any lay of a species already in the row)."
    ),
    "web.choice.refill_trigger.capture": "a capture",
    "web.choice.refill_trigger.same_species_lay": (
        "any lay of a species already in the row, so that a row a refill left with one "
        "species is refilled when that species is laid on it"
    ),
    "web.option.round_end_timing": "An empty hand ends the round",
    "web.option.round_end_timing.help": (
        "When an empty hand ends the round (the rulebook says 'as soon as')."
    ),
    "web.choice.round_end_timing.end_of_turn": "at the end of the turn",
    "web.choice.round_end_timing.immediate": (
        "at once, when a lay that captured nothing empties the hand (before the optional draw)"
    ),
    "web.option.exhaustion_counts_discard": "Count the discard pile when dealing a new round",
    "web.option.exhaustion_counts_discard.help": (
        "Whether the discard pile counts towards the 8 cards per player needed to deal a "
        "new round (SEED2 counts the draw pile alone)."
    ),
    "web.choice.exhaustion_counts_discard.true": "yes, the draw and discard piles together",
    "web.choice.exhaustion_counts_discard.false": "no, the draw pile alone",
    "web.option.next_round_first_player": "A new round is dealt and started by",
    "web.option.next_round_first_player.help": "Who deals a new round and takes its first turn.",
    "web.choice.next_round_first_player.round_ender": "the player who ended the round",
    "web.choice.next_round_first_player.left_of_round_ender": (
        "the round-ender deals, the next player clockwise starts"
    ),
    "web.choice.next_round_first_player.same_dealer": (
        "the first dealer, every round (SEED2 read literally)"
    ),
    "web.option.always_prompt_flock": "Always ask about flocks",
    "web.option.always_prompt_flock.help": (
        "Whether the flock step is offered every turn, so that nobody can tell who holds a "
        "flock (as Board Game Arena plays)."
    ),
    "web.choice.always_prompt_flock.false": "no, only when a flock is possible",
    "web.choice.always_prompt_flock.true": (
        "yes, every turn, with pass as the only choice when no flock is possible"
    ),
    # The review of a finished game (js/review.js; POST and GET /api/tables/ID/review).
    "web.review.tab_game": "Game",
    "web.review.tab": "Review",
    "web.review.tabs": "Game and review",
    "web.review.title": "Game review (expert, {simulations} simulations per decision)",
    "web.review.loading": "Asking for the review…",
    "web.review.queued": "The review is waiting for a free worker of the server…",
    "web.review.computing": "The expert is reviewing the game: position {done} of {total}…",
    "web.review.computing_start": "The expert is reviewing the game…",
    "web.review.failed": "The review failed ({error}). Open the tab again to ask once more.",
    "web.review.chart": (
        "Each player's chance of winning before each move, as the expert estimates it from "
        "what everyone sees. A dot marks a costly move: click it, or one of the moves below, "
        "to see it."
    ),
    "web.review.chart_label": "Chance of winning of each player, move by move",
    "web.review.costliest": (
        "{player}: the costliest moves (on average {average} lost per decision)"
    ),
    "web.review.points#one": "{count} percentage point",
    "web.review.points#other": "{count} percentage points",
    "web.review.average": "{points} percentage points",
    "web.review.move": "Move {move}: {points} lost",
    "web.review.no_costly": ("Every move was within 1 percentage point of the expert's best."),
    "web.review.played": "Played ({chance} chance of winning): {action}",
    "web.review.better": "Better ({chance} chance of winning): {action}",
    "web.review.position": "Move {move}: what {player} saw before it",
    "web.review.hand": "{player}'s hand",
    "web.review.row": "Row {row}",
    "web.review.here": "the better move lays here",
    "web.error.review_not_over": "the game is not over: a review is made once it is",
    "web.error.review_expired": "the table expired before the end of its game: no review",
    "web.error.review_not_ready": "the review is not ready yet",
    "web.error.review_busy": "too many reviews are waiting: try again later",
}

GERMAN: dict[str, str] = {
    "web.brand": "CuBirds",
    "web.page_title": "CuBirds · cuckoo-rules",
    "web.title_turn": "Du bist dran · CuBirds",
    "web.title_over": "Spielende · CuBirds",
    "web.tagline": "Spiele gegen Bots oder Freunde, mit der Engine cuckoo-rules.",
    "web.skip": "Zum Spiel springen",
    "web.language": "Sprache",
    "web.dark_mode": "Dunkles Design",
    "web.dismiss": "Schließen",
    "web.new_game": "Neues Spiel",
    "web.your_name": "Dein Name",
    "web.name_placeholder": "optional",
    "web.num_players": "Anzahl der Spieler",
    "web.seats": "Plätze",
    "web.seat_you": "Platz 0: du",
    "web.seat_n": "Platz {seat}",
    "web.seat_name": "Name für Platz {seat}",
    "web.human_seat": "Mensch (Link teilen)",
    "web.initial.flamingo": "F",
    "web.initial.owl": "Eu",
    "web.initial.toucan": "T",
    "web.initial.duck": "En",
    "web.initial.parrot": "P",
    "web.initial.magpie": "El",
    "web.initial.reed_warbler": "Ro",
    "web.initial.robin": "Rk",
    "web.bot_kind": "Bot: {name}",
    "web.bot.random": "Zufallsbot",
    "web.bot.greedy": "Gieriger Bot",
    "web.bot.ismcts": "Suchbot (ismcts)",
    "web.bot.expert": "Expertenbot",
    "web.lobby_check": "In der Lobby anzeigen",
    "web.lobby_check_help": (
        "Dann kann jeder einen freien Platz aus der Liste der offenen Tische nehmen."
    ),
    "web.seed": "Startwert",
    "web.seed_optional": "(optional, für eine wiederholbare Verteilung)",
    "web.seed_help": "Eine ganze Zahl; leer lassen für eine zufällige Verteilung.",
    "web.seed_invalid": "Der Startwert muss eine ganze Zahl von 0 bis {max} sein.",
    "web.variants": "Regelvarianten",
    "web.standard": "{text} (Standard)",
    "web.start": "Spiel beginnen",
    "web.lobby_title": "Offene Tische",
    "web.refresh": "Aktualisieren",
    "web.lobby_empty": (
        "Kein Tisch wartet auf Mitspieler. Eröffne einen mit „In der Lobby anzeigen“."
    ),
    "web.lobby_unavailable": "Die Liste der offenen Tische ist gerade nicht lesbar.",
    "web.free_seat": "freier Platz",
    "web.free_seats#one": "{count} freier Platz",
    "web.free_seats#other": "{count} freie Plätze",
    "web.players_n#one": "{count} Spieler",
    "web.players_n#other": "{count} Spieler",
    "web.join": "Mitspielen",
    "web.join_label": "Am Tisch von {name} mitspielen",
    "web.game": "Spiel",
    "web.loading": "Der Tisch wird geladen…",
    "web.your_turn": "Du bist dran: {doing}.",
    "web.other_turn": "{player} ist dran ({doing})…",
    "web.waiting_join": "Warten, bis jemand den Platz von {player} einnimmt…",
    "web.watching_note": "Du schaust zu.",
    "web.expired": "Dieser Tisch ist abgelaufen: zu lange gab es keine Aktion.",
    "web.thinking": "{player} denkt nach…",
    "web.thinking_badge": "denkt nach",
    "web.live_off": (
        "Die Live-Aktualisierung ist unterbrochen: der Tisch wird jede Sekunde abgefragt."
    ),
    "web.phase.lay": "Vögel anlegen",
    "web.phase.draw": "entscheiden, ob nachgezogen wird",
    "web.phase.flock": "einen Schwarm ausspielen oder passen",
    "web.phase.game_over": "Spielende",
    "web.draw_pile": "Nachziehstapel: {count}",
    "web.discard_pile": "Ablagestapel: {count}",
    "web.round": "Runde",
    "web.turn": "Zug",
    "web.you_are": "Du bist",
    "web.spectator": "Zuschauer",
    "web.game_over": "Spielende.",
    "web.reason": "Grund: {reason}.",
    "web.final_collections": "Sammlungen am Spielende",
    "web.standing": "{player}: {progress}",
    "web.standing_winner": "{player} (Sieger): {progress}",
    "web.deal": (
        "Verteilt mit Startwert {seed} (Salz {salt}), vor der ersten Aktion festgelegt als "
        "{commitment}: prüfe es mit cuckoo_rules.fairness.check_deal."
    ),
    "web.check_deal": "Diese Verteilung prüfen",
    "web.rematch": "Revanche",
    "web.rematch_ready": "Eine Revanche hat an einem neuen Tisch begonnen, mit denselben Plätzen.",
    "web.rematch_follow": "Revanche spielen",
    "web.rematch_watch": "Revanche ansehen",
    "web.notices": "Hinweise",
    "web.notice": "Aktion {move}: {text}",
    "web.stand_in": (
        "Der Bot von {who} ist zweimal gescheitert (Fehler: {failures}); der gierige Bot "
        "hat diese Aktion an seiner Stelle gespielt."
    ),
    "web.invite": "Einladen und zuschauen",
    "web.share_seat": "Platz {seat} ({player}) ist frei: schicke diesen Link einem Freund",
    "web.share_watch": "Zuschauer: diesen Tisch ansehen",
    "web.copy": "Link kopieren",
    "web.copied": "Kopiert",
    "web.copy_prompt": "Kopiere diesen Link:",
    "web.rows": "Reihen",
    "web.row_label": "Reihe {row}, von links nach rechts: {cards}",
    "web.cards#one": "{count} Karte",
    "web.cards#other": "{count} Karten",
    "web.end_left": "Linkes Ende von Reihe {row}",
    "web.end_right": "Rechtes Ende von Reihe {row}",
    "web.not_here": "die gewählte Art kann hier nicht angelegt werden",
    "web.choose_first": "wähle zuerst eine Art aus deiner Hand",
    "web.lay_left": "{birds} links an Reihe {row} anlegen",
    "web.lay_right": "{birds} rechts an Reihe {row} anlegen",
    "web.captures": "{cards} auf die Hand",
    "web.captures_nothing": "keine Karten auf die Hand",
    "web.captures_short#one": "{count} auf die Hand",
    "web.captures_short#other": "{count} auf die Hand",
    "web.refilled": "die Reihe wird dann aufgefüllt",
    "web.refilled_short": "auffüllen",
    "web.may_draw": "dann darfst du nachziehen",
    "web.may_draw_short": "nachziehen möglich",
    "web.maybe_draw": "dann darfst du vielleicht nachziehen",
    "web.maybe_draw_short": "vielleicht nachziehen",
    "web.where_left": "Links an Reihe {row}",
    "web.where_right": "Rechts an Reihe {row}",
    "web.lay_group": "{birds} anlegen",
    "web.moves": "Deine Aktionen",
    "web.prompt_species": "Wähle eine Art aus deiner Hand…",
    "web.prompt_end": "…dann ein Ende einer Reihe.",
    "web.waiting": "Warten auf die anderen…",
    "web.draw": "2 Karten nachziehen",
    "web.pass": "Passen",
    "web.pass.draw": "Nicht nachziehen",
    "web.pass.flock": "Kein Schwarm: passen",
    "web.hint.no_flock": "Du spielst keinen Schwarm aus.",
    "web.fly": (
        "{birds} als Schwarm ausspielen ({home} in deine Sammlung, {discarded} auf den "
        "Ablagestapel)"
    ),
    "web.all_moves#one": "Alle erlaubten Aktionen ({count})",
    "web.all_moves#other": "Alle erlaubten Aktionen ({count})",
    "web.hand_title#one": "Deine Hand: {count} Karte",
    "web.hand_title#other": "Deine Hand: {count} Karten",
    "web.hand_empty": "Deine Hand ist leer.",
    "web.hand_choose": "Wähle eine Art, dann ein Ende einer Reihe.",
    "web.hand_selected": "{species}: wähle jetzt ein Ende einer Reihe (Esc bricht ab).",
    "web.hand_flocks": (
        "Auf jeder Karte: wie viele Karten ein ausgespielter Schwarm braucht, damit 1 / 2 "
        "Vögel in die Sammlung kommen; ✓: genug."
    ),
    "web.flock_sizes": (
        "ein ausgespielter Schwarm von {small} Vögeln bringt 1 in die Sammlung, von {big} 2"
    ),
    "web.flock_ready": "genug zum Ausspielen",
    "web.hint": "Tipp",
    "web.hint_busy": "Denke nach…",
    "web.hint_loading": "Der Experte denkt nach…",
    "web.hint_title": (
        "Die besten Aktionen des Experten ({simulations} Simulationen), mit deiner "
        "geschätzten Gewinnchance danach. Klicke eine an, um sie zu spielen."
    ),
    "web.players": "Spieler",
    "web.you": "du",
    "web.to_play": "am Zug",
    "web.winner": "Sieger",
    "web.hand_size#one": "{count} Karte auf der Hand",
    "web.hand_size#other": "{count} Karten auf der Hand",
    "web.known": "bekannt: {cards}",
    "web.progress": ("{species}/{win_species} Arten · {triples}/{win_triples} Drillinge · {cards}"),
    "web.collection": "Sammlung",
    "web.no_birds": "Noch keine Vögel",
    "web.log": "Was geschah",
    "web.log_label": "Spielprotokoll",
    "web.log_empty": "Noch ist nichts geschehen.",
    "web.key": "Arten und Schwarmgrößen",
    "web.key_caption": "Die Arten, ihre Kartenzahl und die Schwärme, die man ausspielen kann",
    "web.key_species": "Art",
    "web.key_cards": "Karten",
    "web.key_small": "Kleiner Schwarm (1 Vogel)",
    "web.key_big": "Großer Schwarm (2 Vögel)",
    "web.error.network": "Der Server ist nicht erreichbar. Läuft er noch?",
    "web.error.unreadable": "Der Server hat eine unlesbare Antwort geschickt.",
    "web.error.not_your_turn": "du bist nicht dran",
    "web.error.stale_move": "diese Aktion wurde schon gespielt: der Tisch wird neu gelesen",
    "web.error.game_over": "das Spiel ist vorbei",
    "web.error.expired": "der Tisch ist abgelaufen: zu lange keine Aktion",
    "web.error.no_free_seat": "jeder Platz an diesem Tisch ist besetzt",
    "web.error.seat_taken": "dieser Platz ist besetzt",
    "web.error.invitation_used": (
        "diese Einladung wurde schon benutzt (sie gilt einmal): bitte um eine neue"
    ),
    "web.error.detail": "{what}: {detail}",
    "web.error.status": "Fehler {status}",
    "web.error.400": "Ungültige Anfrage",
    "web.error.401": "Der Link dieses Platzes ist ungültig",
    "web.error.403": "Nicht erlaubt",
    "web.error.404": "Diesen Tisch gibt es nicht",
    "web.error.409": "Jetzt nicht erlaubt",
    "web.error.413": "Zu groß",
    "web.error.429": "Zu viele Tische",
    "web.error.501": "Auf diesem Server nicht verfügbar",
    "web.error.503": "Der Server kann gerade keine Aktionen speichern",
    "web.option.initial_row_length": "Karten pro Reihe beim Aufbau",
    "web.option.initial_row_length.help": (
        "Wie viele Karten jede Reihe beim Aufbau hat (4 ist die Lesart der englischen "
        "Hilfeseite von Board Game Arena)."
    ),
    "web.choice.initial_row_length.3": "3 Karten",
    "web.choice.initial_row_length.4": "4 Karten",
    "web.option.setup_duplicates_to": "Beim Aufbau der Reihen beiseitegelegte Karten kommen auf",
    "web.option.setup_duplicates_to.help": (
        "Wohin die beim Aufbau der Reihen beiseitegelegten Karten kommen."
    ),
    "web.choice.setup_duplicates_to.discard": "den Ablagestapel",
    "web.choice.setup_duplicates_to.draw_pile": "den Nachziehstapel, wieder eingemischt",
    "web.option.optional_draw_if_adjacent": (
        "Nachziehen nach dem Anlegen neben dieselbe Art anbieten"
    ),
    "web.option.optional_draw_if_adjacent.help": (
        "Ob das Nachziehen angeboten wird, wenn beim Anlegen neben Vögel derselben Art "
        "keine Karten aufgenommen wurden (die deutsche Kurzanleitung sagt nein)."
    ),
    "web.choice.optional_draw_if_adjacent.true": (
        "ja, immer wenn beim Anlegen keine Karten aufgenommen wurden"
    ),
    "web.choice.optional_draw_if_adjacent.false": (
        "nein, nur wenn die angelegte Art nicht in der Reihe lag"
    ),
    "web.option.refill_trigger": "Eine Reihe mit nur noch einer Art wird aufgefüllt nach",
    "web.option.refill_trigger.help": (
        "Was eine Reihe mit nur einer Art auffüllt (die deutsche Kurzanleitung, wörtlich "
        "gelesen, füllt nach jedem Anlegen einer Art auf, die schon in der Reihe liegt)."
    ),
    "web.choice.refill_trigger.capture": "dem Aufnehmen von Karten",
    "web.choice.refill_trigger.same_species_lay": (
        "jedem Anlegen einer Art, die schon in der Reihe liegt, sodass eine Reihe, die ein "
        "Auffüllen mit nur einer Art ließ, aufgefüllt wird, wenn diese Art an sie angelegt "
        "wird"
    ),
    "web.option.round_end_timing": "Eine leere Hand beendet die Runde",
    "web.option.round_end_timing.help": (
        "Wann eine leere Hand die Runde beendet (die Anleitung sagt „sobald“)."
    ),
    "web.choice.round_end_timing.end_of_turn": "am Ende des Zuges",
    "web.choice.round_end_timing.immediate": (
        "sofort, wenn ein Anlegen, bei dem keine Karten aufgenommen werden, die Hand leert "
        "(vor dem möglichen Nachziehen)"
    ),
    "web.option.exhaustion_counts_discard": (
        "Ablagestapel beim Austeilen einer neuen Runde mitzählen"
    ),
    "web.option.exhaustion_counts_discard.help": (
        "Ob der Ablagestapel zu den 8 Karten pro Spieler zählt, die zum Austeilen einer "
        "neuen Runde nötig sind (die deutsche Kurzanleitung zählt nur den Nachziehstapel)."
    ),
    "web.choice.exhaustion_counts_discard.true": "ja, Nachzieh- und Ablagestapel zusammen",
    "web.choice.exhaustion_counts_discard.false": "nein, nur der Nachziehstapel",
    "web.option.next_round_first_player": "Wer eine neue Runde austeilt und beginnt",
    "web.option.next_round_first_player.help": (
        "Wer eine neue Runde austeilt und ihren ersten Zug macht."
    ),
    "web.choice.next_round_first_player.round_ender": "wer die Runde beendet hat",
    "web.choice.next_round_first_player.left_of_round_ender": (
        "wer die Runde beendet hat, teilt aus; der nächste Spieler im Uhrzeigersinn beginnt"
    ),
    "web.choice.next_round_first_player.same_dealer": (
        "der erste Kartengeber, jede Runde (die deutsche Kurzanleitung, wörtlich gelesen)"
    ),
    "web.option.always_prompt_flock": "Immer nach Schwärmen fragen",
    "web.option.always_prompt_flock.help": (
        "Ob der Schwarm-Schritt in jedem Zug angeboten wird, sodass niemand erkennt, wer "
        "einen Schwarm hält (wie auf Board Game Arena)."
    ),
    "web.choice.always_prompt_flock.false": "nein, nur wenn ein Schwarm möglich ist",
    "web.choice.always_prompt_flock.true": (
        "ja, in jedem Zug, mit Passen als einziger Wahl, wenn kein Schwarm möglich ist"
    ),
    # The review of a finished game (js/review.js; POST and GET /api/tables/ID/review).
    "web.review.tab_game": "Spiel",
    "web.review.tab": "Analyse",
    "web.review.tabs": "Spiel und Analyse",
    "web.review.title": "Spielanalyse (Experte, {simulations} Simulationen je Entscheidung)",
    "web.review.loading": "Die Analyse wird angefragt…",
    "web.review.queued": "Die Analyse wartet auf einen freien Rechenprozess des Servers…",
    "web.review.computing": "Der Experte analysiert das Spiel: Stellung {done} von {total}…",
    "web.review.computing_start": "Der Experte analysiert das Spiel…",
    "web.review.failed": (
        "Die Analyse ist fehlgeschlagen ({error}). Öffne den Reiter erneut, um sie noch "
        "einmal anzufragen."
    ),
    "web.review.chart": (
        "Die Gewinnchance jedes Spielers vor jeder Aktion, vom Experten geschätzt aus dem, "
        "was alle sehen. Ein Punkt markiert eine teure Aktion: klicke ihn oder eine der "
        "Aktionen unten an, um sie zu sehen."
    ),
    "web.review.chart_label": "Gewinnchance jedes Spielers, Aktion für Aktion",
    "web.review.costliest": (
        "{player}: die teuersten Aktionen (im Schnitt {average} Verlust je Entscheidung)"
    ),
    "web.review.points#one": "{count} Prozentpunkt",
    "web.review.points#other": "{count} Prozentpunkte",
    "web.review.average": "{points} Prozentpunkte",
    "web.review.move": "Aktion {move}: {points} verloren",
    "web.review.no_costly": (
        "Jede Aktion lag weniger als 1 Prozentpunkt hinter der besten des Experten."
    ),
    "web.review.played": "Gespielt (Gewinnchance {chance}): {action}",
    "web.review.better": "Besser (Gewinnchance {chance}): {action}",
    "web.review.position": "Aktion {move}: was {player} davor sah",
    "web.review.hand": "Hand von {player}",
    "web.review.row": "Reihe {row}",
    "web.review.here": "hier legt die bessere Aktion an",
    "web.error.review_not_over": "das Spiel ist nicht vorbei: eine Analyse gibt es erst danach",
    "web.error.review_expired": "der Tisch ist vor dem Spielende abgelaufen: keine Analyse",
    "web.error.review_not_ready": "die Analyse ist noch nicht fertig",
    "web.error.review_busy": "zu viele Analysen warten: versuche es später noch einmal",
}

RUSSIAN: dict[str, str] = {
    "web.brand": "CuBirds",
    "web.page_title": "CuBirds · cuckoo-rules",
    "web.title_turn": "Ваш ход · CuBirds",
    "web.title_over": "Конец игры · CuBirds",
    "web.tagline": "Играйте против ботов или друзей на движке cuckoo-rules.",
    "web.skip": "Перейти к игре",
    "web.language": "Язык",
    "web.dark_mode": "Тёмная тема",
    "web.dismiss": "Закрыть",
    "web.new_game": "Новая игра",
    "web.your_name": "Ваше имя",
    "web.name_placeholder": "необязательно",
    "web.num_players": "Число игроков",
    "web.seats": "Места",
    "web.seat_you": "Место 0: вы",
    "web.seat_n": "Место {seat}",
    "web.seat_name": "Имя для места {seat}",
    "web.human_seat": "Человек (поделиться ссылкой)",
    "web.initial.flamingo": "Ф",
    "web.initial.owl": "Св",
    "web.initial.toucan": "Т",
    "web.initial.duck": "У",
    "web.initial.parrot": "П",
    "web.initial.magpie": "Ср",
    "web.initial.reed_warbler": "К",
    "web.initial.robin": "М",
    "web.bot_kind": "Бот: {name}",
    "web.bot.random": "Случайный бот",
    "web.bot.greedy": "Жадный бот",
    "web.bot.ismcts": "Бот с поиском (ismcts)",
    "web.bot.expert": "Бот-эксперт",
    "web.lobby_check": "Показать в лобби",
    "web.lobby_check_help": "Тогда любой сможет занять свободное место из списка открытых столов.",
    "web.seed": "Зерно",
    "web.seed_optional": "(необязательно, для повторяемой раздачи)",
    "web.seed_help": "Целое число; оставьте пустым для случайной раздачи.",
    "web.seed_invalid": "Зерно должно быть целым числом от 0 до {max}.",
    "web.variants": "Варианты правил",
    "web.standard": "{text} (стандарт)",
    "web.start": "Начать",
    "web.lobby_title": "Открытые столы",
    "web.refresh": "Обновить",
    "web.lobby_empty": ("Ни один стол не ждёт игроков. Начните свой, отметив «Показать в лобби»."),
    "web.lobby_unavailable": "Список открытых столов сейчас недоступен.",
    "web.free_seat": "свободное место",
    "web.free_seats#one": "{count} свободное место",
    "web.free_seats#few": "{count} свободных места",
    "web.free_seats#many": "{count} свободных мест",
    "web.players_n#one": "{count} игрок",
    "web.players_n#few": "{count} игрока",
    "web.players_n#many": "{count} игроков",
    "web.join": "Сесть за стол",
    "web.join_label": "Сесть за стол игрока {name}",
    "web.game": "Игра",
    "web.loading": "Загрузка стола…",
    "web.your_turn": "Ваш ход: {doing}.",
    "web.other_turn": "Ходит {player} ({doing})…",
    "web.waiting_join": "Ждём, пока кто-нибудь займёт место {player}…",
    "web.watching_note": "Вы наблюдаете.",
    "web.expired": "Этот стол закрыт: слишком долго не было ни одного действия.",
    "web.thinking": "{player} думает…",
    "web.thinking_badge": "думает",
    "web.live_off": "Живые обновления прервались: стол проверяется каждую секунду.",
    "web.phase.lay": "выложить птиц",
    "web.phase.draw": "решить, брать ли карты",
    "web.phase.flock": "отправить стаю домой или спасовать",
    "web.phase.game_over": "конец игры",
    "web.draw_pile": "Колода: {count}",
    "web.discard_pile": "Сброс: {count}",
    "web.round": "Раунд",
    "web.turn": "Ход",
    "web.you_are": "Вы",
    "web.spectator": "зритель",
    "web.game_over": "Конец игры.",
    "web.reason": "Причина: {reason}.",
    "web.final_collections": "Итоговые коллекции",
    "web.standing": "{player}: {progress}",
    "web.standing_winner": "{player} (победитель): {progress}",
    "web.deal": (
        "Раздано с зерном {seed} (соль {salt}), зафиксированным до первого действия как "
        "{commitment}: проверьте с помощью cuckoo_rules.fairness.check_deal."
    ),
    "web.check_deal": "Проверить раздачу",
    "web.rematch": "Реванш",
    "web.rematch_ready": "Реванш начался за новым столом, с теми же местами.",
    "web.rematch_follow": "Играть реванш",
    "web.rematch_watch": "Смотреть реванш",
    "web.notices": "Уведомления",
    "web.notice": "Действие {move}: {text}",
    "web.stand_in": (
        "Бот игрока {who} дважды ошибся (ошибки: {failures}); вместо него это действие "
        "сделал жадный бот."
    ),
    "web.invite": "Пригласить и наблюдать",
    "web.share_seat": "Место {seat} ({player}) свободно: отправьте эту ссылку другу",
    "web.share_watch": "Зрителям: смотреть этот стол",
    "web.copy": "Копировать ссылку",
    "web.copied": "Скопировано",
    "web.copy_prompt": "Скопируйте эту ссылку:",
    "web.rows": "Ряды",
    "web.row_label": "Ряд {row}, слева направо: {cards}",
    "web.cards#one": "{count} карта",
    "web.cards#few": "{count} карты",
    "web.cards#many": "{count} карт",
    "web.end_left": "Левый конец ряда {row}",
    "web.end_right": "Правый конец ряда {row}",
    "web.not_here": "выбранный вид сюда не выложить",
    "web.choose_first": "сначала выберите вид в руке",
    "web.lay_left": "Выложить {birds} слева в ряд {row}",
    "web.lay_right": "Выложить {birds} справа в ряд {row}",
    "web.captures": "забираете {cards}",
    "web.captures_nothing": "в руку ничего",
    "web.captures_short#one": "{count} в руку",
    "web.captures_short#few": "{count} в руку",
    "web.captures_short#many": "{count} в руку",
    "web.refilled": "затем ряд пополняется",
    "web.refilled_short": "пополнение",
    "web.may_draw": "затем можно взять карты",
    "web.may_draw_short": "можно взять карты",
    "web.maybe_draw": "затем, возможно, можно взять карты",
    "web.maybe_draw_short": "возможно, взять карты",
    "web.where_left": "Слева в ряд {row}",
    "web.where_right": "Справа в ряд {row}",
    "web.lay_group": "Выложить {birds}",
    "web.moves": "Ваши действия",
    "web.prompt_species": "Выберите вид в руке…",
    "web.prompt_end": "…затем конец ряда.",
    "web.waiting": "Ждём других игроков…",
    "web.draw": "Взять 2 карты",
    "web.pass": "Пас",
    "web.pass.draw": "Не брать",
    "web.pass.flock": "Без стаи: пас",
    "web.hint.no_flock": "Вы не отправляете стаю домой.",
    "web.fly": "Отправить стаю домой ({birds}; {home} в вашу коллекцию, {discarded} в сброс)",
    "web.all_moves#one": "Все допустимые действия ({count})",
    "web.all_moves#few": "Все допустимые действия ({count})",
    "web.all_moves#many": "Все допустимые действия ({count})",
    "web.hand_title#one": "Ваша рука: {count} карта",
    "web.hand_title#few": "Ваша рука: {count} карты",
    "web.hand_title#many": "Ваша рука: {count} карт",
    "web.hand_empty": "Ваша рука пуста.",
    "web.hand_choose": "Выберите вид, затем конец ряда.",
    "web.hand_selected": "{species}: теперь выберите конец ряда (Esc — отмена).",
    "web.hand_flocks": (
        "На каждой карте: сколько карт нужно стае, чтобы отправить домой 1 / 2 птицы; "
        "✓: уже хватает."
    ),
    "web.flock_sizes": "стая из {small} отправляет домой 1 птицу, из {big} — 2 птицы",
    "web.flock_ready": "хватает, чтобы отправить домой",
    "web.hint": "Подсказка",
    "web.hint_busy": "Думаю…",
    "web.hint_loading": "Эксперт думает…",
    "web.hint_title": (
        "Лучшие действия эксперта (симуляций: {simulations}) и ваш примерный шанс на "
        "победу после каждого. Нажмите на действие, чтобы выполнить его."
    ),
    "web.players": "Игроки",
    "web.you": "вы",
    "web.to_play": "ходит",
    "web.winner": "победитель",
    "web.hand_size#one": "{count} карта в руке",
    "web.hand_size#few": "{count} карты в руке",
    "web.hand_size#many": "{count} карт в руке",
    "web.known": "известно: {cards}",
    "web.progress": "{species}/{win_species} видов · {triples}/{win_triples} троек · {cards}",
    "web.collection": "Коллекция",
    "web.no_birds": "Птиц пока нет",
    "web.log": "Что произошло",
    "web.log_label": "Журнал игры",
    "web.log_empty": "Пока ничего не произошло.",
    "web.key": "Виды и размеры стай",
    "web.key_caption": "Виды, число их карт и стаи, которые можно отправить домой",
    "web.key_species": "Вид",
    "web.key_cards": "Карт",
    "web.key_small": "Малая стая (1 птица)",
    "web.key_big": "Большая стая (2 птицы)",
    "web.error.network": "Сервер недоступен. Он ещё работает?",
    "web.error.unreadable": "Сервер прислал нечитаемый ответ.",
    "web.error.not_your_turn": "сейчас не ваш ход",
    "web.error.stale_move": "это действие уже сделано: стол читается заново",
    "web.error.game_over": "игра окончена",
    "web.error.expired": "стол закрыт: слишком долго не было ни одного действия",
    "web.error.no_free_seat": "все места за этим столом заняты",
    "web.error.seat_taken": "это место занято",
    "web.error.invitation_used": (
        "это приглашение уже использовано (оно действует один раз): попросите новое"
    ),
    "web.error.detail": "{what}: {detail}",
    "web.error.status": "Ошибка {status}",
    "web.error.400": "Неверный запрос",
    "web.error.401": "Ссылка этого места недействительна",
    "web.error.403": "Не разрешено",
    "web.error.404": "Такого стола нет",
    "web.error.409": "Сейчас нельзя",
    "web.error.413": "Слишком большой запрос",
    "web.error.429": "Слишком много столов",
    "web.error.501": "Недоступно на этом сервере",
    "web.error.503": "Сервер сейчас не может сохранять действия",
    "web.option.initial_row_length": "Карт в каждом ряду при раскладке",
    "web.option.initial_row_length.help": (
        "Сколько карт в каждом ряду при раскладке (4 — так читается английская справка "
        "Board Game Arena)."
    ),
    "web.choice.initial_row_length.3": "3 карты",
    "web.choice.initial_row_length.4": "4 карты",
    "web.option.setup_duplicates_to": "Карты, отложенные при раскладке рядов, идут",
    "web.option.setup_duplicates_to.help": "Куда идут карты, отложенные при раскладке рядов.",
    "web.choice.setup_duplicates_to.discard": "в сброс",
    "web.choice.setup_duplicates_to.draw_pile": "в колоду, с перемешиванием",
    "web.option.optional_draw_if_adjacent": (
        "Предлагать добор после выкладки рядом с тем же видом"
    ),
    "web.option.optional_draw_if_adjacent.help": (
        "Предлагается ли необязательный добор, если при выкладке рядом с птицами того же "
        "вида не забрано ни одной карты (по немецкому изложению правил — нет)."
    ),
    "web.choice.optional_draw_if_adjacent.true": (
        "да, всякий раз, когда при выкладке не забрано ни одной карты"
    ),
    "web.choice.optional_draw_if_adjacent.false": (
        "нет, только если выложенного вида не было в ряду"
    ),
    "web.option.refill_trigger": "Ряд, в котором остался один вид, пополняется после",
    "web.option.refill_trigger.help": (
        "Что пополняет ряд, в котором остался один вид (немецкое изложение правил, понятое "
        "буквально, пополняет после любой выкладки вида, который уже есть в ряду)."
    ),
    "web.choice.refill_trigger.capture": "того, как из него забраны карты",
    "web.choice.refill_trigger.same_species_lay": (
        "любой выкладки вида, который уже есть в ряду, так что ряд, в котором после "
        "пополнения остался один вид, пополняется, когда к нему выкладывают этот вид"
    ),
    "web.option.round_end_timing": "Пустая рука завершает раунд",
    "web.option.round_end_timing.help": (
        "Когда пустая рука завершает раунд (в правилах — «как только»)."
    ),
    "web.choice.round_end_timing.end_of_turn": "в конце хода",
    "web.choice.round_end_timing.immediate": (
        "сразу, если после выкладки, при которой ничего не забрано, рука пуста (до "
        "необязательного добора)"
    ),
    "web.option.exhaustion_counts_discard": "Учитывать сброс при раздаче нового раунда",
    "web.option.exhaustion_counts_discard.help": (
        "Учитывается ли сброс в 8 карт на игрока, нужных для раздачи нового раунда "
        "(немецкое изложение правил считает только колоду)."
    ),
    "web.choice.exhaustion_counts_discard.true": "да, колода и сброс вместе",
    "web.choice.exhaustion_counts_discard.false": "нет, только колода",
    "web.option.next_round_first_player": "Новый раунд раздаёт и начинает",
    "web.option.next_round_first_player.help": (
        "Кто раздаёт новый раунд и делает в нём первый ход."
    ),
    "web.choice.next_round_first_player.round_ender": "игрок, завершивший раунд",
    "web.choice.next_round_first_player.left_of_round_ender": (
        "раздаёт завершивший раунд, начинает следующий по часовой стрелке"
    ),
    "web.choice.next_round_first_player.same_dealer": (
        "первый раздающий, в каждом раунде (немецкое изложение правил, понятое буквально)"
    ),
    "web.option.always_prompt_flock": "Всегда спрашивать о стаях",
    "web.option.always_prompt_flock.help": (
        "Предлагается ли шаг стаи каждый ход, чтобы никто не мог понять, у кого есть "
        "стая (как на Board Game Arena)."
    ),
    "web.choice.always_prompt_flock.false": "нет, только когда стая возможна",
    "web.choice.always_prompt_flock.true": (
        "да, каждый ход, с пасом как единственным выбором, когда стая невозможна"
    ),
    # The review of a finished game (js/review.js; POST and GET /api/tables/ID/review).
    "web.review.tab_game": "Игра",
    "web.review.tab": "Разбор",
    "web.review.tabs": "Игра и разбор",
    "web.review.title": "Разбор игры (эксперт, симуляций на решение: {simulations})",
    "web.review.loading": "Запрашиваем разбор…",
    "web.review.queued": "Разбор ждёт, когда у сервера освободится вычислитель…",
    "web.review.computing": "Эксперт разбирает игру: позиция {done} из {total}…",
    "web.review.computing_start": "Эксперт разбирает игру…",
    "web.review.failed": (
        "Разбор не удался ({error}). Откройте вкладку ещё раз, чтобы запросить его снова."
    ),
    "web.review.chart": (
        "Шанс на победу каждого игрока перед каждым действием, по оценке эксперта из того, "
        "что видят все. Точка отмечает дорогое действие: нажмите на неё или на действие "
        "ниже, чтобы его увидеть."
    ),
    "web.review.chart_label": "Шанс на победу каждого игрока, действие за действием",
    "web.review.costliest": ("{player}: худшие действия (средняя потеря за решение — {average})"),
    "web.review.points#one": "{count} процентный пункт",
    "web.review.points#few": "{count} процентных пункта",
    "web.review.points#many": "{count} процентных пунктов",
    "web.review.average": "{points} п. п.",
    "web.review.move": "Действие {move}: потеряно {points}",
    "web.review.no_costly": (
        "Каждое действие хуже лучшего по оценке эксперта менее чем на 1 процентный пункт."
    ),
    "web.review.played": "Выбрано (шанс на победу {chance}): {action}",
    "web.review.better": "Лучше (шанс на победу {chance}): {action}",
    "web.review.position": "Действие {move}: что видел {player} перед ним",
    "web.review.hand": "Карты в руке: {player}",
    "web.review.row": "Ряд {row}",
    "web.review.here": "сюда выкладывает лучшее действие",
    "web.error.review_not_over": "игра не окончена: разбор делается только после неё",
    "web.error.review_expired": "стол закрыт до конца игры: разбора нет",
    "web.error.review_not_ready": "разбор ещё не готов",
    "web.error.review_busy": "слишком много разборов ждут очереди: попробуйте позже",
}

PHRASES: dict[str, dict[str, str]] = {"en": ENGLISH, "de": GERMAN, "ru": RUSSIAN}
"""The browser client's phrases, by language: key to ``str.format`` template."""
