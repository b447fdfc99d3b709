"""Every player's phone as a second screen: a live view of the table, and trades from one's seat.

Two halves in two processes, so that nothing on the web side can stop or slow the table screen:

- :mod:`phones.bridge` runs in the app: it hears every commit the table reports, passes the
  change on to the web process through a pipe without ever waiting for it, and hands what a phone
  asks for to the table's queue (``Table.enqueue``), the same queue the die and the buttons use.
- :mod:`phones.server` is the web process (aiohttp): it keeps its own copy of the game
  (:mod:`phones.replica`), renders each seat's view in each phone's language from the same
  catalogues as the screen (:mod:`phones.seatview`), pushes it over a WebSocket, and guards the
  door (:mod:`phones.guard`).

:mod:`phones.wire` is what the two say to each other; :mod:`phones.strict` reads JSON from a phone
(sizes bounded, duplicate keys refused); :mod:`phones.link` makes the QR link and its code.
The web process imports the engine (pure), never the app or Kivy.
"""
