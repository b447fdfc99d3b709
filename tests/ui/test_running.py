"""The running app is what its screens are typed to take it for (ui/running.py): Kivy's classes are
untyped, so mypy cannot hold ``CompanionApp`` to the protocol; this test does, member by member."""

from __future__ import annotations

from typing import Any

from ui.running import Running


def members() -> list[str]:
    return sorted({*Running.__annotations__, *(n for n in vars(Running) if not n.startswith("__"))} - {"_is_protocol", "_abc_impl"})


def test_the_app_has_every_member_the_screens_use(app: Any) -> None:
    assert "session" in members() and "t" in members()
    missing = [name for name in members() if not hasattr(app, name)]
    assert missing == []
    assert all(callable(getattr(app, name)) for name in members() if callable(getattr(Running, name, None)))
