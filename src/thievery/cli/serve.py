"""`thievery serve`: the multiplayer web server on uvicorn; prints the URL to open."""

from __future__ import annotations

import errno
import math
import os
import sys
from pathlib import Path
from typing import IO, Any, NoReturn
from urllib.parse import quote, unquote, urlsplit

import typer

from thievery.bots.realtime import MAX_THINK_SECONDS, THINK_SECONDS
from thievery.cli.app import app
from thievery.cli.usage import ThieveryCommand

_CAPS = "Limits (per client = per address)"
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def sqlite_file(url: str) -> str | None:
    """The file a SQLite URL opens, as SQLAlchemy reads it (``%20`` a space; an SQLite URI,
    ``sqlite:///file:PATH?…&uri=true``, its PATH); ``None`` for another database or one in
    memory."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    if not url.startswith("sqlite:///"):
        return None
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    name = parsed.database or ""
    if name.startswith("file:") and parsed.query.get("uri") == "true":
        if parsed.query.get("mode") == "memory":
            return None
        name = unquote(urlsplit(name).path)
    return None if name in ("", ":memory:") else name


def hold_sqlite_file(url: str) -> list[IO[Any]]:
    """Lock a SQLite database for this server (released when the process ends however it
    ends): a second server on the same file would keep other tables in memory, and its
    writes fail. Exits with an error if another holds it. Returns the files held open.

    Two locks: a lock file beside the database (by its real path, so a symbolic link
    finds it; it holds the server's process id, for the message), and, on Linux, the
    database file itself, for a hard link: the same file by another name, with a lock file
    of its own. (That one is ``flock``, which on Linux's own file systems never meets
    SQLite's locks, ``fcntl``'s; on macOS and the BSDs the two kinds share one list and it
    would block SQLite, so it is not taken there. Where a file system refuses it, as NFS
    can, it is not taken either.)"""
    name = sqlite_file(url)
    if name is None:
        return []
    try:
        import fcntl
    except ImportError:  # (not on Windows)
        return []
    # (beside the file itself, wherever links to it lead: two servers on a file and a
    # symbolic link to it are two servers on one file)
    real = Path(name).resolve()
    path = real.with_name(real.name + ".server-lock")

    def refuse(who: str) -> NoReturn:
        typer.secho(
            f"error: another thievery serve ({who}) uses {name}: one server per SQLite "
            "file (several processes share PostgreSQL: --workers)",
            fg="red",
            err=True,
        )
        raise typer.Exit(2) from None

    try:
        held = path.open("a+")
    except OSError:
        return []  # (a folder it cannot write: the database's own check says so)
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        held.seek(0)
        other = held.read().strip() or "?"
        held.close()
        refuse(f"process {other}")
    database: IO[Any] | None = None
    if sys.platform.startswith("linux"):
        try:  # (made empty if new: SQLite takes an empty file for a new database)
            database = real.open("rb" if real.exists() else "ab")
        except OSError:
            database = None  # (the database's own check says what is wrong)
    if database is not None:
        try:
            fcntl.flock(database, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            database.close()
            database = None
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                held.close()
                refuse("on the same file by another name: a hard link")
    held.truncate(0)
    held.write(str(os.getpid()))
    held.flush()
    return [held] if database is None else [held, database]


def shown_url(url: str) -> str:
    """The database URL as the start-up line shows it: a SQLite file's path made absolute
    (the default, thievery.db, is in the folder the server was started in)."""
    name = sqlite_file(url)
    if name is None or Path(name).is_absolute():
        return url
    query = url.partition("?")[2]
    if url[len("sqlite:///") :].startswith("file:"):  # (an SQLite URI: its path made absolute)
        return f"sqlite:///file:{quote(str(Path(name).resolve()))}?{query}"
    return f"sqlite:///{Path(name).resolve()}" + (f"?{query}" if query else "")


def bad_public_url(url: str) -> str | None:
    """What is wrong with ``--public-url``, if anything. Invite links are it followed by
    ``/table/ID``, and the pages ask for ``/api/…`` and ``/static/…`` at the root of the
    address they were opened at: so it is a scheme, a host and maybe a port, nothing after
    them but a ``/`` (no path, query or fragment), and no user or spaces."""
    example = "(e.g. https://games.example.org or http://192.168.1.20:8000)"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not url.lower().startswith(parts.scheme + "://"):
        return f"--public-url starts with http:// or https:// {example}, not {url!r}"
    try:
        parts.port  # noqa: B018 (it checks the port)
    except ValueError:
        return f"--public-url has a port of 0 to 65535 {example}, not {url!r}"
    if not parts.hostname or "@" in parts.netloc or any(c.isspace() for c in url):
        return f"--public-url names a host, no user or spaces {example}, not {url!r}"
    if parts.path not in ("", "/") or "?" in url or "#" in url:
        return (
            f"--public-url is the address of the site's root {example}, not {url!r}: the "
            "server serves its pages at the root of the address (a proxy that serves it "
            "under a path breaks them), and invite links add /table/… to it"
        )
    return None


def bad_numbers(above_0: dict[str, float], at_least_0: dict[str, float]) -> str | None:
    """What is wrong with the numeric options, if anything: each a finite number, above 0
    or at least 0 (NaN is neither)."""
    for flag, value in above_0.items():
        if not (math.isfinite(value) and value > 0):
            return f"{flag} is a number above 0, not {value}"
    for flag, value in at_least_0.items():
        if not (math.isfinite(value) and value >= 0):
            return f"{flag} is a number of at least 0, not {value}"
    return None


# How a bad --bot-think-seconds is refused (a usage error: thievery.cli.usage words it in
# the command line's language).
THINK_WORDS = "seconds above 0 and at most {most}, not {value}"


def check_think_seconds(value: float) -> float:
    """``--bot-think-seconds`` as given, if it is a number of seconds above 0 and at most
    :data:`~thievery.bots.realtime.MAX_THINK_SECONDS` (NaN is neither); else a usage
    error, and the server does not start."""
    if not (math.isfinite(value) and 0 < value <= MAX_THINK_SECONDS):
        words = THINK_WORDS.format(most=f"{MAX_THINK_SECONDS:g}", value=f"{value:g}")
        raise typer.BadParameter(words)
    return value


@app.command(cls=ThieveryCommand)
def serve(
    host: str = typer.Option(
        "127.0.0.1", help="address to listen on (0.0.0.0: every interface, for a LAN)"
    ),
    port: int = typer.Option(
        8000, min=0, max=65535, help="port to listen on (0: any free port, printed)"
    ),
    db: str | None = typer.Option(
        None, help="database URL (default: $THIEVERY_DATABASE_URL, else sqlite thievery.db)"
    ),
    bot_delay: float = typer.Option(0.6, help="seconds a bot waits before it moves"),
    bot_processes: int | None = typer.Option(
        None,
        help="processes search bots think in, beside each server process (default: the "
        "cores the server leaves, 1 to 4; 0: in the server's own threads)",
    ),
    bot_think_seconds: float = typer.Option(
        THINK_SECONDS,
        help="seconds a search bot may think an action in a real-time game (Schatz-Rabatz), "
        "on top of its reaction time: more on a strong machine, less on a weak one (above "
        f"0, at most {MAX_THINK_SECONDS:g})",
        callback=check_think_seconds,
    ),
    log_level: str = typer.Option("warning", help=f"uvicorn log level: {', '.join(LOG_LEVELS)}"),
    files_dir: Path | None = typer.Option(
        None, "--files-dir", help="folder of card set files tables may choose by name"
    ),
    public_url: str | None = typer.Option(
        None,
        "--public-url",
        help="the address friends reach the server at (e.g. https://games.example.org); "
        "invite links use it",
    ),
    live_tables: int = typer.Option(
        1000, help="unfinished tables in memory", rich_help_panel=_CAPS
    ),
    tables_per_client: int = typer.Option(
        20, help="unfinished tables one client may have made", rich_help_panel=_CAPS
    ),
    tables_per_minute: float = typer.Option(
        12.0, help="tables one client may make a minute", rich_help_panel=_CAPS
    ),
    actions_per_second: float = typer.Option(
        20.0, help="HTTP actions one client may send a second", rich_help_panel=_CAPS
    ),
    reads_per_second: float = typer.Option(
        20.0,
        help="HTTP reads (listings, a table, its state or record) one client may send a second",
        rich_help_panel=_CAPS,
    ),
    frames_per_second: float = typer.Option(
        20.0,
        help="websocket frames one connection may send a second (twice that at once)",
        rich_help_panel=_CAPS,
    ),
    chat_per_minute: float = typer.Option(
        60.0,
        help="chat lines one seat may say a minute, over all its connections (five at once)",
        rich_help_panel=_CAPS,
    ),
    bots_per_table: int = typer.Option(8, help="bot seats at one table", rich_help_panel=_CAPS),
    connections_per_client: int = typer.Option(
        32, help="websockets one client may hold", rich_help_panel=_CAPS
    ),
    connections_per_table: int = typer.Option(
        64, help="websockets at one table", rich_help_panel=_CAPS
    ),
    spectators: int = typer.Option(50, help="spectators at one table", rich_help_panel=_CAPS),
    idle_minutes: float = typer.Option(
        10.0, help="an unused table is unloaded from memory after this", rich_help_panel=_CAPS
    ),
    expire_days: float = typer.Option(
        7.0,
        help="a table without an action this long is closed (0: never)",
        rich_help_panel=_CAPS,
    ),
    header_timeout: float = typer.Option(
        10.0, help="seconds a client has to send a request's headers", rich_help_panel=_CAPS
    ),
    limit_concurrency: int | None = typer.Option(
        None, help="connections and requests at once, past which 503", rich_help_panel=_CAPS
    ),
    workers: int = typer.Option(
        1,
        min=1,
        help="server processes on this port (more than 1: PostgreSQL only; tables are "
        "shared through the database)",
    ),
    lease_seconds: float = typer.Option(
        6.0,
        min=0.5,
        help="PostgreSQL: seconds after a server process stops answering (killed, cut "
        "off) before another takes its tables over",
    ),
) -> None:
    """Start the web server and print the URL to open.

    On PostgreSQL, several `thievery serve` processes (``--workers N`` here, or on other
    machines with the same ``--db``) are one service: a client may use any of them."""
    from dataclasses import replace

    from thievery.server.botpool import auto_size
    from thievery.server.limits import Caps
    from thievery.server.run import bind_each
    from thievery.server.sockets import Limits
    from thievery.server.storage import Storage, StorageError, database_url
    from thievery.server.workers import (
        ServeOptions,
        make_app,
        run_app,
        run_workers,
        tune_process,
    )

    try:
        url = database_url(db)
    except StorageError as e:
        typer.secho(f"error: {e}", fg="red", err=True)
        raise typer.Exit(2) from None
    caps = replace(
        Caps(),
        live_tables=live_tables,
        tables_per_client=tables_per_client,
        tables_per_minute=tables_per_minute,
        actions_per_second=actions_per_second,
        actions_burst=max(1.0, 2 * actions_per_second),
        reads_per_second=reads_per_second,
        reads_burst=max(1.0, 3 * reads_per_second),
        bots_per_table=bots_per_table,
        connections_per_client=connections_per_client,
        connections_per_table=connections_per_table,
        spectators_per_table=spectators,
        idle_unload_seconds=idle_minutes * 60,
        expire_seconds=expire_days * 86400,
        header_timeout=header_timeout,
        realtime_think_seconds=bot_think_seconds,
    )
    wrong_url = None if public_url is None else bad_public_url(public_url)
    if wrong_url:
        typer.secho(f"error: {wrong_url}", fg="red", err=True)
        raise typer.Exit(2)
    if workers > 1 and not url.startswith("postgresql"):
        typer.secho(
            f"error: --workers {workers} needs PostgreSQL (--db postgresql+psycopg://…): "
            "server processes share tables through the database, and a SQLite file "
            "serves one process",
            fg="red",
            err=True,
        )
        raise typer.Exit(2)
    wrong = bad_numbers(
        above_0={
            "--tables-per-minute": tables_per_minute,
            "--actions-per-second": actions_per_second,
            "--reads-per-second": reads_per_second,
            "--frames-per-second": frames_per_second,
            "--chat-per-minute": chat_per_minute,
            "--idle-minutes": idle_minutes,
            "--header-timeout": header_timeout,
            "--lease-seconds": lease_seconds,
            "--live-tables": live_tables,
            "--tables-per-client": tables_per_client,
            "--connections-per-client": connections_per_client,
            "--connections-per-table": connections_per_table,
            **({} if limit_concurrency is None else {"--limit-concurrency": limit_concurrency}),
        },
        at_least_0={
            "--bot-delay": bot_delay,
            "--bots-per-table": bots_per_table,
            **({} if bot_processes is None else {"--bot-processes": bot_processes}),
            "--spectators": spectators,
            "--expire-days": expire_days,
        },
    )
    if wrong:
        typer.secho(f"error: {wrong}", fg="red", err=True)
        raise typer.Exit(2)
    if log_level.lower() not in LOG_LEVELS:
        typer.secho(
            f"error: --log-level is one of {', '.join(LOG_LEVELS)}, not {log_level!r}",
            fg="red",
            err=True,
        )
        raise typer.Exit(2)
    if files_dir is not None and not files_dir.is_dir():
        typer.secho(f"error: --files-dir {files_dir} is not a folder", fg="red", err=True)
        raise typer.Exit(2)
    limits = replace(
        Limits(),
        rate=frames_per_second,
        burst=max(1.0, 2 * frames_per_second),
        chat_rate=chat_per_minute / 60,
    )
    options = ServeOptions(
        url,
        bot_delay=max(0.0, bot_delay),
        bot_processes=auto_size(workers) if bot_processes is None else bot_processes,
        limits=limits,
        files_dir=files_dir,
        caps=caps,
        public_url=public_url,
        lease_seconds=lease_seconds,
        log_level=log_level.lower(),
        limit_concurrency=limit_concurrency,
    )
    held = hold_sqlite_file(url)  # (kept open, and locked, while the server runs)
    try:  # (closed however serve ends: a caller in this process may serve the file again)
        try:
            if workers > 1:  # each worker makes its own app; check the database here first
                Storage(url, lock_seconds=caps.storage_seconds).close()
                application = None
            else:
                application = make_app(options)
        except StorageError as e:
            typer.secho(f"error: {e}", fg="red", err=True)
            raise typer.Exit(2) from None
        # Bind first, so the URL printed is the port really listened on (also for --port 0).
        try:
            listeners = bind_each(host, port, workers)
        except OSError as e:
            typer.secho(f"error: cannot listen on {host}:{port}: {e.strerror}", fg="red", err=True)
            raise typer.Exit(2) from None
        listener = listeners[0]
        port = listener.getsockname()[1]
        shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(host, host)
        if ":" in shown and not shown.startswith("["):
            shown = f"[{shown}]"
        typer.echo(
            f"Thievery is at http://{shown}:{port}/  (API docs: /docs; storage: {shown_url(url)})"
        )
        if url in ("sqlite://", "sqlite:///", "sqlite:///:memory:"):
            typer.echo("The database is in memory: nothing is kept when the server stops.")
        if public_url:
            typer.echo(f"Invite links point to {public_url.rstrip('/')}/")
        elif host in ("0.0.0.0", "::"):
            typer.echo(
                "Listening on every interface: friends on your network use this machine's "
                f"address (port {port}); --public-url sets the address invite links use."
            )
        if workers > 1:
            typer.echo(f"{workers} server processes share this port and the database.")
        typer.echo("Press Ctrl+C to stop.")
        if application is None:
            run_workers(options, listeners)
            return
        tune_process()
        run_app(application, options, listener)
    finally:
        for file in held:
            file.close()
