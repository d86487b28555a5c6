"""Domain errors. All are ValueErrors; malformed input and illegal moves are kept apart.

Faces map them to stable codes with :func:`error_code`.
"""

from collections.abc import Sequence


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


class ComponentsChanged(InvalidRecord):
    """A record (or a stored table) played with other components than this install has (a
    card set, a components file: see ``GameSpec.component_digests``): replayed here, it
    would be another game, not the one played. ``title``: the game's; ``changes``: each
    component that differs, as (name, the record's digest, this install's or ``None``)."""

    def __init__(
        self,
        message: str,
        title: str = "",
        changes: Sequence[tuple[str, str, str | None]] = (),
    ) -> None:
        super().__init__(message)
        self.title = title
        self.changes = list(changes)


def error_code(error: Exception) -> str:
    """The stable code of an error, for faces (HTTP, websockets, CLI)."""
    return error.code if isinstance(error, ThieveryError) else "error"
