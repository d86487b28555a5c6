"""What one audience is sent, for live tables and replays alike: the events it may see,
each in words (seats by name), and views without the game's static keys (sent once).

An audience is a seat, or ``None`` for spectators.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import orjson

from thievery.core.protocol import JSON, Event, GameSpec

Audience = int | None


def frame_text(frame: Any) -> str:
    """A frame as compact JSON text, as ``json.dumps(frame, separators=(",", ":"))`` writes
    it (keys that are not strings written as strings), by orjson: several times faster,
    and frames are encoded for every audience at every action. What orjson cannot write
    (an integer past 64 bits) is written by :func:`json.dumps`."""
    try:
        return orjson.dumps(frame).decode()  # (string keys: a third faster, see _canonical)
    except TypeError:
        pass
    try:
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(frame, separators=(",", ":"))


def without(view: JSON, keys: Sequence[str]) -> JSON:
    """A view without some of its keys (a game's static ones, sent once)."""
    return {k: v for k, v in view.items() if k not in keys}


def event_words(
    spec: GameSpec, event: Event, audience: Audience, names: Sequence[str] | None = None
) -> JSON:
    """An event's JSON for an audience with its words, seats named by ``names`` (none:
    "seat N"). The caller checks that the audience may see it."""
    try:
        text = spec.describe(event, audience, names)
    except Exception:  # words are a nicety; never lose a frame over them
        text = event.type
    # (Event.to_json's keys and the words, made as one dict: this runs for every event
    # and audience at every action)
    return {"type": event.type, "audience": event.audience, **event.data, "text": text}


def describe_all(
    spec: GameSpec,
    events: Sequence[Event],
    audience: Audience,
    names: Sequence[str] | None = None,
) -> list[JSON]:
    """Events visible to an audience, each with its words (seats named by ``names``)."""
    return [event_words(spec, e, audience, names) for e in events if e.is_visible_to(audience)]
