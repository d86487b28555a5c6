"""What one client, one table and the whole server may use: caps, rate limits, budgets.

:class:`Caps` holds every number (``thievery serve`` options set them; the defaults suit
a server for friends that strangers can also reach). :class:`RateLimiter` keeps a token
bucket per client (its address), bounded in how many clients it remembers.
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from dataclasses import dataclass

from thievery.bots.realtime import THINK_SECONDS
from thievery.server.errors import ServerError


def client_key(host: str) -> str:
    """Who a client is, for rate limits and caps, from its address: an IPv6 client counts
    by its /64, the block one host is usually given (else every address of it would have
    buckets and caps of its own); anything else as it is."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return host


@dataclass(frozen=True)
class Caps:
    """Limits on what clients may make and use, and budgets for slow work."""

    # Making tables: per client (address) a rate, and how many unfinished tables at once.
    tables_per_minute: float = 12.0
    tables_burst: float = 10.0
    tables_per_client: int = 20
    live_tables: int = 1000  # unfinished tables in memory, over all clients
    bots_per_table: int = 8
    inline_option_bytes: int = 256 << 10  # an option's inline content (a card set), as JSON
    # HTTP requests of one client that act or replay: a rate and a burst.
    actions_per_second: float = 20.0
    actions_burst: float = 40.0
    replays_per_minute: float = 30.0
    replays_burst: float = 10.0
    # HTTP requests of one client that read (listings, a table, its state or record).
    reads_per_second: float = 20.0
    reads_burst: float = 60.0
    # Connections.
    connections_per_table: int = 64  # spectators and sockets not joined yet (seats: any)
    join_seconds: float = 10.0  # a socket not joined by then is closed
    crowded_grace: float = 2.0  # seconds a socket over the table's cap has to join a seat
    connections_per_client: int = 32
    spectators_per_table: int = 50
    send_queue_bytes: int = 2 << 20  # queued for one connection before it is cut off
    presence_interval: float = 0.2  # seconds between two "seats" frames of a table
    header_timeout: float = 10.0  # seconds a client has to send a request's headers
    # Tables nobody uses: unloaded from memory (loaded again when used), then closed.
    idle_unload_seconds: float = 600.0
    expire_seconds: float = 7 * 24 * 3600.0
    sweep_seconds: float = 60.0
    # How often to check whether a full garbage collection is due (0: Python's own
    # schedule only; see Hub._collect_forever). Reference cycles are freed only by a full
    # collection, which Python runs only once the objects that survived collections have
    # grown by a quarter; a server that keeps few objects long never reaches that: when
    # tables and connections still left cycles, its memory grew ~50 KB for every table
    # played under churn (2.6 MB/s) until collected. They leave none now; this is the
    # safety net, and it backs off while collections find little.
    gc_seconds: float = 1.0
    # Slow work, off the event loop.
    replay_seconds: float = 10.0
    replay_bytes: int = 16 << 20
    replay_cache: int = 32  # replays kept, and at most this many bytes of them:
    replay_cache_bytes: int = 64 << 20
    replay_workers: int = 1
    replay_queue: int = 4  # replays waiting for a worker; more are refused (503)
    bot_seconds: float = 30.0  # a bot thinking longer plays a random legal action instead
    # A real-time game: a search bot thinks at most this long an action (its deadline),
    # on top of its reaction time (see thievery.bots.realtime and the driver): above 0
    # and at most MAX_THINK_SECONDS there (`thievery serve --bot-think-seconds`).
    realtime_think_seconds: float = THINK_SECONDS
    inline_bots: tuple[str, ...] = ("random", "heuristic")  # quick: think on the loop
    storage_seconds: float = 10.0  # a commit waiting longer is reported as failed

    @classmethod
    def lifted(cls) -> Caps:
        """The per-client rates and counts out of the way (budgets and sizes kept): for
        tests and benchmarks, whose many clients all come from one address."""
        many = 1_000_000
        return cls(
            tables_per_minute=many,
            tables_burst=many,
            tables_per_client=many,
            actions_per_second=many,
            actions_burst=many,
            replays_per_minute=many,
            replays_burst=many,
            reads_per_second=many,
            reads_burst=many,
            connections_per_client=many,
        )


class Bucket:
    """A token bucket: ``rate`` a second on average, ``burst`` at once."""

    __slots__ = ("at", "burst", "rate", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until a token is there."""
        return max(0.1, (1 - self.tokens) / self.rate) if self.rate > 0 else 60.0


class RateLimiter:
    """A token bucket per client, the least recently seen forgotten past ``keep``."""

    def __init__(self, name: str, rate: float, burst: float, keep: int = 10_000) -> None:
        self.name, self.rate, self.burst, self.keep = name, rate, burst, keep
        self.buckets: OrderedDict[str, Bucket] = OrderedDict()

    def check(self, client: str, what: str | None = None) -> None:
        """Spend one of the client's tokens, or refuse with 429 (and when to retry), saying
        too many of ``what`` (by default the limiter's name)."""
        bucket = self.buckets.get(client)
        if bucket is None:
            bucket = self.buckets[client] = Bucket(self.rate, self.burst)
            while len(self.buckets) > self.keep:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(client)
        if not bucket.take():
            raise RateLimited(what or self.name, bucket.wait())


class RateLimited(ServerError):
    """Too many requests of one kind from one client."""

    def __init__(self, what: str, retry_after: float) -> None:
        super().__init__("rate/limited", f"too many {what}; try again in {retry_after:.1f} s", 429)
        self.retry_after = retry_after


CAP_RETRY_SECONDS = 60.0  # when to try again at a cap: a guess (a table ends, a client leaves)


class CapReached(ServerError):
    """A cap reached (429: try later, when some are gone); ``retry_after`` is a hint."""

    def __init__(self, what: str, cap: int) -> None:
        super().__init__("limit/" + what.replace(" ", "_"), f"at most {cap} {what}", 429)
        self.retry_after = CAP_RETRY_SECONDS


def too_many(what: str, cap: int) -> ServerError:
    """A cap reached (429: try later, when some are gone)."""
    return CapReached(what, cap)
