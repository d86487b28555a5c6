"""The multiplayer server: tables and seats, invite tokens, websockets, storage.

>>> from thievery.server import create_app
>>> app = create_app("sqlite://", bot_delay=0)
"""

from thievery.server.app import create_app
from thievery.server.sockets import Limits

__all__ = ["Limits", "create_app"]
