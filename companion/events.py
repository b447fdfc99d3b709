"""What happened when an action was applied, for the log and the screen.

An event is a sentence (:class:`companion.messages.Said`): a message key and
its parameters; the text comes from the message catalogue in the language
of the screen.

>>> Event("paid_rent", {"payer": "Anna", "payee": "Béla", "amount": 600}).key
'paid_rent'
"""

from __future__ import annotations

from companion.messages import Said

Event = Said
"""An event is said like every other sentence."""
