"""The wire's reading of an open websocket's frames (:meth:`Wire._parse_plain` reads
plain text frames itself, websockets' parser the rest), without a server: whatever the
client sends, cut into reads anywhere, the wire takes the same messages, answers the
same bytes and ends in the same state as when websockets' parser reads it all whole."""

from __future__ import annotations

import asyncio
import json
import struct
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from uvicorn.config import Config
from websockets.protocol import State

from tests.server.conftest import loop_asks
from thievery.server.wire import Wire, between_frames, wire_protocol

MAX_SIZE = 300  # the connection's message size limit here (a frame past it is refused)


@dataclass
class Transport:
    """What a wire writes, and whether it closed its transport."""

    written: list[bytes] = field(default_factory=list)
    closed: bool = False
    paused: bool = False

    def write(self, data: bytes) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default


@dataclass
class ServerState:
    tasks: set[Any] = field(default_factory=set)
    connections: set[Any] = field(default_factory=set)


class Unplain(Wire):
    """The reference: every read goes to websockets' parser."""

    __slots__ = ()

    def _parse_plain(self, data: bytes) -> None:
        self._parse(data)


def open_wire(kind: type[Wire]) -> tuple[Wire, Transport]:
    """A wire whose handshake is over (as :meth:`Wire.upgrade` leaves it), on a transport
    that keeps what is written; no table (its messages wait in its inbox)."""
    config = Config(app=None, ws_max_size=MAX_SIZE, ws_ping_interval=None)
    cls = type("TestWire", (kind,), {"wires": wire_protocol(object()).wires, "__slots__": ()})
    wire = cls(config, ServerState(), {})  # type: ignore[arg-type]
    transport = Transport()
    wire.connection_made(transport)  # type: ignore[arg-type]
    wire.conn.state = State.OPEN
    wire.conn.parser = wire.conn.parse()
    next(wire.conn.parser)
    return wire, transport


def frame(opcode: int, payload: bytes, mask: bytes, fin: bool = True, wide: bool = False) -> bytes:
    """A client's frame with the given mask (``wide``: the 16-bit length even if short,
    which websockets takes too)."""
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    if n < 126 and not wide:
        head += bytes([0x80 | n])
    else:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def read(kind: type[Wire], pieces: list[bytes]) -> tuple[Any, ...]:
    """What a wire of ``kind`` makes of ``pieces``, each one read: its messages, what it
    wrote, whether it closed, and its protocol's state."""
    wire, transport = open_wire(kind)
    for piece in pieces:
        if transport.closed:
            break
        wire.data_received(piece)
        while wire.backlog is not None:  # (a long read is parsed a piece a turn)
            await asyncio.sleep(0)
    for timer in (wire.close_timer, wire.join_timer):
        if timer is not None:
            timer.cancel()
    return wire.inbox, b"".join(transport.written), transport.closed, wire.conn.state


def ping(ref: str, pad: int = 0) -> bytes:
    return json.dumps({"type": "ping", "id": ref, "pad": "x" * pad}).encode()


masks = st.binary(min_size=4, max_size=4) | st.sampled_from(
    # masks whose masked payload begins as a plain frame's head would (0x81, masked bit)
    [bytes([0x81 ^ 0x7B, 0x80 ^ 0x22, 0, 0]), bytes([0x81, 0x80, 0, 0]), bytes(4)]
)
texts = st.one_of(
    st.builds(ping, st.text("abc", max_size=3), st.sampled_from([0, 80, 95, 96, 97, 260])),
    st.binary(max_size=40),  # (some not UTF-8: closed with 1007)
    st.sampled_from([b"", b"\xff", json.dumps({"id": "\xe9"}).encode()]),
)


@st.composite
def frames(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["text", "text", "text", "binary", "ping", "fragments", "close"]))
    mask = draw(masks)
    wide = draw(st.booleans())
    if kind == "text":
        return frame(0x1, draw(texts), mask, wide=wide)
    if kind == "binary":
        return frame(0x2, draw(st.binary(max_size=20)), mask, wide=wide)
    if kind == "ping":
        return frame(0x9, draw(st.binary(max_size=10)), mask)
    if kind == "close":
        return frame(0x8, struct.pack("!H", 1000), mask)
    payload = draw(texts)
    cut = draw(st.integers(0, len(payload)))
    first = frame(0x1, payload[:cut], mask, fin=False, wide=wide)
    between = frame(0x9, b"p", mask) if draw(st.booleans()) else b""
    return first + between + frame(0x0, payload[cut:], draw(masks), wide=wide)


@settings(max_examples=600, deadline=None)
@given(
    st.lists(frames(), min_size=1, max_size=8),
    st.lists(st.integers(0, 4000), max_size=6),
    st.binary(max_size=3),
)
def test_a_stream_read_in_any_pieces_is_read_as_websockets_reads_it_frame_by_frame(
    sent: list[bytes], cuts: list[int], tail: bytes
) -> None:
    """The reference: websockets' parser given each frame as a read of its own (each
    handled before the next comes). The wire, given the same bytes cut anywhere: the
    same messages, and, unless the stream has a fault, the same bytes written and the
    same end. After a fault (a frame websockets refuses, a text not UTF-8, a message
    past the size limit) the connection is closed either way, but which of a read's
    faults (or the client's own close) is answered, and whether a ping after the fault
    in the same read is, may differ: websockets parses a whole read before the wire
    sees its frames."""
    stream = b"".join(sent) + tail  # (a tail: a frame begun and never finished)
    points = sorted({c % (len(stream) + 1) for c in cuts})
    pieces = [stream[a:b] for a, b in zip([0, *points], [*points, len(stream)], strict=True)]
    pieces = [p for p in pieces if p]

    async def both() -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        one_by_one = [f for f in [*sent, tail] if f]
        return await read(Unplain, one_by_one), await read(Wire, pieces)

    theirs, ours = asyncio.run(both())
    assert ours[0] == theirs[0]  # the messages taken
    assert ours[2:] == theirs[2:]  # closed or not, and the protocol's state
    ours_out, theirs_out = server_frames(ours[1]), server_frames(theirs[1])
    code = close_code(theirs_out)
    if code in (None, 1000):
        assert ours_out == theirs_out
        return
    answers = {code, 1002, 1007} | ({1000} if any(f[0] == 0x88 for f in sent) else set())
    assert close_code(ours_out) in answers
    before = [f for f in theirs_out if f[0] != 0x8]
    assert [f for f in ours_out if f[0] != 0x8][: len(before)] == before


def server_frames(data: bytes) -> list[tuple[int, bytes]]:
    """The server's frames (unmasked) in what it wrote: (opcode, payload)."""
    out = []
    while data:
        opcode, n, start = data[0] & 0x0F, data[1] & 0x7F, 2
        if n == 126:
            n, start = struct.unpack("!H", data[2:4])[0], 4
        out.append((opcode, data[start : start + n]))
        data = data[start + n :]
    return out


def close_code(frames: list[tuple[int, bytes]]) -> int | None:
    codes = [struct.unpack("!H", p[:2])[0] for op, p in frames if op == 0x8 and len(p) >= 2]
    return codes[0] if codes else None


def test_a_frame_cut_after_its_mask_is_not_read_from_inside_its_payload() -> None:
    """The review's case: a ping whose mask makes its masked payload begin like a plain
    frame's head, read in two pieces: its head and mask, then the rest. The wire must
    not take the payload for a frame (websockets' parser is inside that frame, with an
    empty buffer)."""
    payload = ping("x1")
    n = len(payload) - 6
    mask = bytes([payload[0] ^ 0x81, payload[1] ^ (0x80 | n), 0x11, 0x22])
    sent = frame(0x1, payload, mask) + frame(0x1, ping("after"), bytes(4))
    assert sent[6:8] == bytes([0x81, 0x80 | n])  # (it does begin like one)

    async def split() -> tuple[Any, ...]:
        return await read(Wire, [sent[:6], sent[6:]])

    inbox, _, closed, state = asyncio.run(split())
    assert [json.loads(text)["id"] for text in inbox] == ["x1", "after"]
    assert not closed and state is State.OPEN


def test_between_frames_tells_a_frame_begun_from_none() -> None:
    async def opened() -> Wire:  # (a connection is made on its loop)
        return open_wire(Wire)[0]

    wire = asyncio.run(opened())
    assert between_frames(wire.conn)
    whole = frame(0x9, b"hello", bytes(4))
    wire.conn.receive_data(whole[:6])  # the head and the mask: the parser is inside it
    assert not wire.conn.reader.buffer and not between_frames(wire.conn)
    wire.conn.receive_data(whole[6:])
    assert between_frames(wire.conn)
    wire.conn.receive_data(whole[:1])  # one byte of a head: held in the buffer
    assert not between_frames(wire.conn)


def test_a_connections_tasks_and_flushes_use_the_loop_taken_when_it_opened(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """asyncio's get_running_loop makes a system call (it checks the process id): taken
    once a connection, not at every frame handled and every flush."""
    ran: list[int] = []

    async def work(n: int) -> None:
        ran.append(n)

    async def go() -> int:
        wire = open_wire(Wire)[0]
        with loop_asks(monkeypatch) as asked:
            tasks = [wire.wires.task(work(n)) for n in range(3)]
            wire.wires.later(wire)
        await asyncio.gather(*tasks)
        await asyncio.sleep(0)  # (the flush)
        assert not wire.wires.unflushed
        assert wire.wires.loop is asyncio.get_running_loop()
        wire.connection_lost(None)  # the last one: the next takes the loop again
        assert wire.wires.loop is None
        return asked[0]

    assert asyncio.run(go()) == 0
    assert ran == [0, 1, 2]
