"""Domain errors. All are ValueErrors; malformed input and illegal moves are kept apart.

Faces map them to stable codes with :func:`error_code`.
"""


class ThieveryError(ValueError):
    """Base of every Thievery error."""

    code = "error"


class UnknownGame(ThieveryError):
    """A game name that is not registered."""

    code = "game/unknown"


class InvalidOption(ThieveryError):
    """A player count or option that the game does not allow."""

    code = "options/invalid"


class MalformedAction(ThieveryError):
    """An action that is not well formed (unknown type, missing or wrong fields)."""

    code = "action/malformed"


class IllegalAction(ThieveryError):
    """A well-formed action that is not legal now for that seat."""

    code = "action/illegal"


class InvalidRecord(ThieveryError):
    """A game record that cannot be read or does not replay."""

    code = "record/invalid"


def error_code(error: Exception) -> str:
    """The stable code of an error, for faces (HTTP, websockets, CLI)."""
    return error.code if isinstance(error, ThieveryError) else "error"
