"""A phone's pick turned back into the engine's value: the phone answers with indexes into what it
was offered, never with values, and anything not offered is refused before the table hears of it."""

from __future__ import annotations

from typing import Any

from companion.describe import Described, Dialog
from phones import strict


def chosen_value(described: Described, option: object, fields: object) -> tuple[Any, str] | None:
    """The value a phone picked for a choice (its free parameter's option, or its dialog's fields, each
    by its index in the description) and the words of it, or None if it picked nothing offered.

    A fixed choice takes neither; a choice with one free parameter an ``option``; a dialog of fields or
    a wager one index per field; an ordering every index of its one field once.
    """
    if described.dialog is None:
        if fields is not None or (option is None) != (described.param is None):
            return None
        if option is None:
            return None, ""
        if not strict.whole(option) or not 0 <= option < len(described.options):
            return None
        return described.options[option].value, described.options[option].label
    if option is not None or not isinstance(fields, dict) or set(fields) != set(described.fields):
        return None
    value: dict[str, Any] = {}
    words: list[str] = []
    for name, options in described.fields.items():
        picked = fields[name]
        if described.dialog == Dialog.PERMUTATION:
            if not (isinstance(picked, list) and all(strict.whole(i) for i in picked)
                    and sorted(picked) == list(range(len(options)))):
                return None
            value[name] = [options[i].value for i in picked]
            words.append(", ".join(options[i].label for i in picked))
        else:
            if not strict.whole(picked) or not 0 <= picked < len(options):
                return None
            value[name] = options[picked].value
            words.append(options[picked].label)
    return value, " · ".join(words)
