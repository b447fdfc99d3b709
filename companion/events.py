"""What happened when an action was applied, for the log and the screen.

An event is a message key and its parameters; the text comes from the
message catalogue in the language of the screen.

>>> Event("paid_rent", {"payer": "Anna", "payee": "Béla", "amount": 600}).key
'paid_rent'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Event:
    """Made for every action, so kept light: slots, and not frozen (a frozen dataclass
    is several times slower to create); nothing changes an event once made."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, language: str = "en") -> str:
        from companion.messages import render

        return render(self.key, self.params, language)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": self.params, "text": self.text()}
