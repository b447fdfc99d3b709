"""The message catalogue: keyed texts in English, Hungarian and German.

The core holds the messages every game shares; each ruleset adds its own
from ``messages.json`` in its folder (``{"en": {key: text}, "hu": …}``).
Parameters are filled with :meth:`str.format`; a ``variant`` parameter picks
the more specific text ``key.variant`` where there is one. A missing
translation falls back to English, a missing key to the key and its parameters.

>>> render("not_your_turn", {"player": "Béla"}, "de")
'Béla ist nicht am Zug.'
>>> render("game_ended", {"variant": "time_up", "reason": "time_up", "winner": "Anna"})
'Time is up: the game is over. Winner: Anna.'
>>> render("no_such_key", {"x": 1})
'no_such_key {"x": 1}'
"""

from __future__ import annotations

import json
from typing import Any, Mapping

LANGUAGES = ("en", "hu", "de")

CATALOGUE: dict[str, dict[str, str]] = {
    "en": {
        "correction.cash": "Correction by the banker for {player}: cash {old} → {new} {currency} ({reason}).",
        "correction.shares": "Correction by the banker for {player}: {company} {old} → {new} shares ({reason}).",
        "correction.no_player": "There is no player {player} to correct.",
        "correction.reason": "A correction needs a reason of one line (at most {most} characters).",
        "correction.player_out": "{player} is out of the game: there is nothing to correct.",
        "correction.payment_waiting": "{player} must first pay the {amount} {currency} owed; correct after that.",
        "correction.nothing": "This correction changes nothing for {player}.",
        "correction.not_a_number": "A correction sets whole numbers, not {value}.",
        "correction.negative_cash": "Cash cannot be set below zero ({value}).",
        "correction.negative_shares": "Shares of {company} cannot be set below zero ({value}).",
        "correction.bank_short": "The bank holds only {bank} {currency}; it cannot pay {amount} {currency} more.",
        "correction.exchange_short": "Only {exchange} shares of {company} are at the exchange: {player} cannot receive {count} more.",
        "correction.no_company": "There is no company {company}; the companies are {companies}.",
        "legal_now": "legal now: {choices}",
        "choice.roll": "Roll the die",
        "choice.end_turn": "End the turn",
        "choice.time_up": "Time is up: end the game",
        "option.shares": "{count} shares — {amount}",
        "option.shares_one": "1 share — {amount}",
        "malformed_action": "This is not an action: {action}.",
        "not_allowed_now": "A '{type}' action is not allowed now.",
        "not_allowed_here": "This '{type}' action is not allowed now for these parameters.",
        "not_your_turn": "It is not {player}'s turn.",
        "bad_fields": "The '{type}' action lacks fields {missing} or has unexpected fields {unexpected}.",
        "out_of_range": "The {field} of '{type}' cannot be {shown}.",
        "out_of_range.range": "The {field} of '{type}' must be from {min} to {max}, not {shown}.",
        "out_of_range.step": "The {field} of '{type}' must be from {min} to {max} in steps of {step}, not {shown}.",
        "out_of_range.one_of": "The {field} of '{type}' must be one of {options}, not {shown}.",
        "out_of_range.permutation": "The {field} of '{type}' must name each of {options} exactly once, not {shown}.",
        "input.not_json": "{what} is not JSON: {problem} (line {line}, column {column}).",
        "input.too_deep": "{what} nests deeper than {limit} levels; no game needs that.",
        "input.number_too_long": "{what} holds a number of more than {limit} digits.",
        "nothing_to_deal": "There is no action of chance to make now.",
        "input.not_utf8": "{what} is not UTF-8 text.",
        "option.range": "The option {option} must be a whole number from {min} to {max}, not {shown}.",
        "option.range_or_null": "The option {option} must be null or a whole number from {min} to {max}, not {shown}.",
        "game_over": "The game is over.",
        "nothing_to_undo": "There is nothing to undo.",
        "nothing_to_redo": "There is nothing to redo.",
        "journal_failed": "The action could not be saved, so it was not taken: {error}",
        "changed_elsewhere": "The game was changed elsewhere, so this was not taken; here is where it stands now, after {length} actions.",
        "journal_damaged": "The saved game is damaged, so nothing more is saved: {error}",
        "read_only": "The journal is open for reading only; nothing was saved.",
        "engine_error": "The action could not be applied and was not taken (an error in the program: {error}).",
        "player_out": "{player} dropped out.",
        "game_ended": "The game is over ({reason}). Winner: {winner}.",
        "game_ended.last_player": "The game is over: {winner} is the last player left and wins.",
        "game_ended.rounds": "The game is over: the last round has been played. Winner: {winner}.",
        "game_ended.time_up": "Time is up: the game is over. Winner: {winner}.",
        "game_ended.bank_insolvent": "The bank cannot pay: the game is over. Winner: {winner}.",
        "turn_passed": "It is {player}'s turn.",
        "round_started": "Round {round} begins.",
    },
    "hu": {
        "correction.cash": "A bankár javítása ({player}): készpénz {old} → {new} {currency} ({reason}).",
        "correction.shares": "A bankár javítása ({player}): {company} részvény {old} → {new} ({reason}).",
        "correction.no_player": "Nincs {player} játékos, akit javítani lehetne.",
        "correction.reason": "A javításhoz egysoros indoklás kell (legfeljebb {most} karakter).",
        "correction.player_out": "{player} kiesett a játékból: nincs mit javítani.",
        "correction.payment_waiting": "Előbb {player} fizesse ki a tartozott {amount} {currency} összeget; utána lehet javítani.",
        "correction.nothing": "Ez a javítás semmit sem változtat {player} számára.",
        "correction.not_a_number": "A javítás egész számokat állít be, nem ezt: {value}.",
        "correction.negative_cash": "A készpénz nem lehet nullánál kevesebb ({value}).",
        "correction.negative_shares": "A(z) {company} részvények száma nem lehet nullánál kevesebb ({value}).",
        "correction.bank_short": "A banknál csak {bank} {currency} van; nem tud még {amount} {currency} összeget fizetni.",
        "correction.exchange_short": "A tőzsdén csak {exchange} {company} részvény van: {player} nem kaphat még {count} darabot.",
        "correction.no_company": "Nincs {company} cég; a cégek: {companies}.",
        "legal_now": "most lehet: {choices}",
        "choice.roll": "Dobás",
        "choice.end_turn": "Lépés vége",
        "choice.time_up": "Lejárt az idő: a játék vége",
        "option.shares": "{count} részvény — {amount}",
        "option.shares_one": "1 részvény — {amount}",
        "malformed_action": "Ez nem lépés: {action}.",
        "not_allowed_now": "A(z) '{type}' lépés most nem megengedett.",
        "not_allowed_here": "Ez a(z) '{type}' lépés ezekkel az adatokkal most nem megengedett.",
        "not_your_turn": "Nem {player} következik.",
        "out_of_range": "A(z) '{type}' {field} értéke nem lehet {shown}.",
        "out_of_range.range": "A(z) '{type}' {field} értéke {min} és {max} között kell legyen, nem {shown}.",
        "out_of_range.step": "A(z) '{type}' {field} értéke {min} és {max} között kell legyen, {step} lépésközzel, nem {shown}.",
        "out_of_range.one_of": "A(z) '{type}' {field} értéke ezek egyike kell legyen: {options}; nem {shown}.",
        "out_of_range.permutation": "A(z) '{type}' {field} értékében ezek mindegyike pontosan egyszer kell szerepeljen: {options}; nem {shown}.",
        "input.not_json": "{what}: nem érvényes JSON: {problem} ({line}. sor, {column}. oszlop).",
        "input.too_deep": "{what}: több mint {limit} szint mélyen egymásba ágyazott; ennyire egy játéknak sincs szüksége.",
        "input.number_too_long": "{what}: {limit} számjegynél hosszabb számot tartalmaz.",
        "nothing_to_deal": "Most nincs véletlenre bízott lépés.",
        "input.not_utf8": "{what}: nem UTF-8 szöveg.",
        "option.range": "A(z) {option} beállítás {min} és {max} közötti egész szám kell legyen, nem {shown}.",
        "option.range_or_null": "A(z) {option} beállítás null vagy {min} és {max} közötti egész szám kell legyen, nem {shown}.",
        "game_over": "A játék véget ért.",
        "nothing_to_undo": "Nincs mit visszavonni.",
        "nothing_to_redo": "Nincs mit újra végrehajtani.",
        "journal_failed": "A lépést nem sikerült menteni, ezért nem történt meg: {error}",
        "changed_elsewhere": "A játékot közben máshol módosították, ezért ez nem történt meg; így áll most, {length} lépés után.",
        "journal_damaged": "A mentett játék sérült, ezért semmi több nem menthető: {error}",
        "read_only": "A napló csak olvasásra van megnyitva; semmi nem lett mentve.",
        "player_out": "{player} kiesett.",
        "game_ended": "A játék véget ért ({reason}). Győztes: {winner}.",
        "game_ended.last_player": "A játék véget ért: {winner} maradt utolsóként játékban, ő nyert.",
        "game_ended.rounds": "A játék véget ért: lement az utolsó kör. Győztes: {winner}.",
        "game_ended.time_up": "Lejárt az idő, a játék véget ért. Győztes: {winner}.",
        "game_ended.bank_insolvent": "A bank nem tud fizetni, a játék véget ért. Győztes: {winner}.",
        "turn_passed": "{player} következik.",
    },
    "de": {
        "correction.cash": "Korrektur durch den Bankhalter für {player}: Bargeld {old} → {new} {currency} ({reason}).",
        "correction.shares": "Korrektur durch den Bankhalter für {player}: {company} {old} → {new} Aktien ({reason}).",
        "correction.no_player": "Es gibt keinen Spieler {player}, der korrigiert werden könnte.",
        "correction.reason": "Eine Korrektur braucht eine einzeilige Begründung (höchstens {most} Zeichen).",
        "correction.player_out": "{player} ist ausgeschieden: Es gibt nichts zu korrigieren.",
        "correction.payment_waiting": "Zuerst muss {player} die geschuldeten {amount} {currency} zahlen; danach kann korrigiert werden.",
        "correction.nothing": "Diese Korrektur ändert für {player} nichts.",
        "correction.not_a_number": "Eine Korrektur setzt ganze Zahlen, nicht {value}.",
        "correction.negative_cash": "Bargeld kann nicht unter null gesetzt werden ({value}).",
        "correction.negative_shares": "Aktien von {company} können nicht unter null gesetzt werden ({value}).",
        "correction.bank_short": "Die Bank hat nur {bank} {currency}; sie kann nicht {amount} {currency} mehr zahlen.",
        "correction.exchange_short": "Nur {exchange} Aktien {company} liegen bei der Börse: {player} kann nicht {count} weitere erhalten.",
        "correction.no_company": "Es gibt keine Firma {company}; die Firmen sind {companies}.",
        "legal_now": "jetzt möglich: {choices}",
        "choice.roll": "Würfeln",
        "choice.end_turn": "Zug beenden",
        "choice.time_up": "Die Zeit ist um: Spiel beenden",
        "option.shares": "{count} Aktien — {amount}",
        "option.shares_one": "1 Aktie — {amount}",
        "malformed_action": "Das ist keine Aktion: {action}.",
        "not_allowed_now": "Die Aktion '{type}' ist jetzt nicht erlaubt.",
        "not_allowed_here": "Die Aktion '{type}' ist mit diesen Angaben jetzt nicht erlaubt.",
        "not_your_turn": "{player} ist nicht am Zug.",
        "out_of_range": "{field} von '{type}' darf nicht {shown} sein.",
        "out_of_range.range": "{field} von '{type}' muss zwischen {min} und {max} liegen, nicht {shown}.",
        "out_of_range.step": "{field} von '{type}' muss zwischen {min} und {max} in Schritten von {step} liegen, nicht {shown}.",
        "out_of_range.one_of": "{field} von '{type}' muss eines von {options} sein, nicht {shown}.",
        "out_of_range.permutation": "{field} von '{type}' muss jedes von {options} genau einmal nennen, nicht {shown}.",
        "input.not_json": "{what} ist kein gültiges JSON: {problem} (Zeile {line}, Spalte {column}).",
        "input.too_deep": "{what} ist tiefer als {limit} Ebenen verschachtelt; kein Spiel braucht das.",
        "input.number_too_long": "{what} enthält eine Zahl mit mehr als {limit} Ziffern.",
        "nothing_to_deal": "Jetzt ist keine Zufallsaktion fällig.",
        "input.not_utf8": "{what} ist kein UTF-8-Text.",
        "option.range": "Die Option {option} muss eine ganze Zahl von {min} bis {max} sein, nicht {shown}.",
        "option.range_or_null": "Die Option {option} muss null oder eine ganze Zahl von {min} bis {max} sein, nicht {shown}.",
        "game_over": "Das Spiel ist zu Ende.",
        "nothing_to_undo": "Es gibt nichts rückgängig zu machen.",
        "nothing_to_redo": "Es gibt nichts zu wiederholen.",
        "journal_failed": "Die Aktion konnte nicht gespeichert werden und wurde nicht ausgeführt: {error}",
        "changed_elsewhere": "Das Spiel wurde anderswo geändert, daher wurde dies nicht ausgeführt; so steht es jetzt, nach {length} Aktionen.",
        "journal_damaged": "Das gespeicherte Spiel ist beschädigt, daher wird nichts mehr gespeichert: {error}",
        "read_only": "Das Journal ist nur zum Lesen geöffnet; nichts wurde gespeichert.",
        "player_out": "{player} ist ausgeschieden.",
        "game_ended": "Das Spiel ist zu Ende ({reason}). Sieger: {winner}.",
        "game_ended.last_player": "Das Spiel ist zu Ende: {winner} ist als Letzte(r) übrig und gewinnt.",
        "game_ended.rounds": "Das Spiel ist zu Ende: die letzte Runde ist gespielt. Sieger: {winner}.",
        "game_ended.time_up": "Die Zeit ist um, das Spiel ist zu Ende. Sieger: {winner}.",
        "game_ended.bank_insolvent": "Die Bank kann nicht zahlen, das Spiel ist zu Ende. Sieger: {winner}.",
        "turn_passed": "{player} ist am Zug.",
    },
}


_GROUPING = {"en": ",", "hu": "\u00a0", "de": "."}
"""How each language separates thousands (12,000 / 12 000 / 12.000); a no-break space keeps a Hungarian amount on one line."""


def number(value: int, language: str = "en") -> str:
    """A whole number as ``language`` writes it; the one place numbers are formatted for people.

    >>> number(12000, "en"), number(12000, "hu"), number(-1900, "de"), number(950, "de")
    ('12,000', '12\xa0000', '-1.900', '950')
    """
    return f"{value:,}".replace(",", _GROUPING.get(language, ","))


def money(amount: int, currency: str, language: str = "en") -> str:
    """An amount with the ruleset's currency, as ``language`` writes it; every text about money uses this.

    >>> money(1900, "Rubin"), money(67950, "DM", "de"), money(500, "DM", "hu")
    ('1,900 Rubin', '67.950 DM', '500 DM')
    """
    return f"{number(amount, language)} {currency}" if currency else number(amount, language)


def counted(key: str, count: int) -> str:
    """The key of a message about ``count`` things: ``key_one`` says "1 share" rather than "1 shares".

    >>> counted("sold", 1), counted("sold", 3)
    ('sold_one', 'sold')
    """
    return key + "_one" if count == 1 else key


def register(messages: Mapping[str, Mapping[str, str]]) -> None:
    """Add a ruleset's messages (``{"en": {key: text}, …}``) to the catalogue."""
    for language, texts in messages.items():
        CATALOGUE.setdefault(language, {}).update(texts)


class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render(key: str, params: Mapping[str, Any] | None = None, language: str = "en") -> str:
    params = params or {}
    template = None
    if "variant" in params:
        specific = f"{key}.{params['variant']}"
        template = CATALOGUE.get(language, {}).get(specific) or CATALOGUE["en"].get(specific)
    template = template or CATALOGUE.get(language, {}).get(key) or CATALOGUE["en"].get(key)
    if template is None:
        return f"{key} {json.dumps(dict(params), ensure_ascii=False)}"
    return template.format_map(_Params(params))
