"""The multiplayer server: tables and seats, invite tokens, websockets, storage.

``app`` builds the FastAPI application from ``api`` (JSON routes), ``sockets`` (live play)
and ``replay``. Tables: ``hub`` makes, restores and forgets them; ``live`` is one table in
memory and the frames it sends; ``seats`` (names, tokens), ``listeners`` (each
connection's queue), ``clock`` (a real-time game's clock), ``driver`` (its bots and turn
timers) and ``audience`` (events in words, views without static keys) serve it;
``storage`` commits every action before anyone is told. ``limits`` holds the caps, rate
limits and time budgets (:class:`Caps`) that keep one client from stalling or filling the
server; ``run`` configures uvicorn as ``thievery serve`` does (a deadline for headers).

>>> from thievery.server import create_app
>>> app = create_app("sqlite://", bot_delay=0)
"""

from thievery.server.app import create_app
from thievery.server.limits import Caps
from thievery.server.sockets import Limits

__all__ = ["Caps", "Limits", "create_app"]
