"""`thievery serve`: the multiplayer web server on uvicorn; prints the URL to open."""

from __future__ import annotations

from pathlib import Path

import typer

from thievery.cli.app import app


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, help="port to listen on (0: any free port, printed)"),
    db: str | None = typer.Option(
        None, help="database URL (default: $THIEVERY_DATABASE_URL, else sqlite thievery.db)"
    ),
    bot_delay: float = typer.Option(0.6, help="seconds a bot waits before it moves"),
    log_level: str = typer.Option("warning", help="uvicorn log level"),
    files_dir: Path | None = typer.Option(
        None, "--files-dir", help="folder of card set files tables may choose by name"
    ),
) -> None:
    """Start the web server and print the URL to open."""
    import gc
    import socket

    import uvicorn

    from thievery.server import create_app
    from thievery.server.storage import database_url

    url = database_url(db)
    application = create_app(url, bot_delay=max(0.0, bot_delay), files_dir=files_dir)
    # Bind first, so the URL printed is the port really listened on (also for --port 0).
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as e:
        listener.close()
        typer.secho(f"error: cannot listen on {host}:{port}: {e.strerror}", fg="red", err=True)
        raise typer.Exit(2) from None
    port = listener.getsockname()[1]
    shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(host, host)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    typer.echo(f"Thievery is at http://{shown}:{port}/  (API docs: /docs; storage: {url})")
    typer.echo("Press Ctrl+C to stop.")
    # Tables hold many small, long-lived objects that reference counting already frees; a
    # full collection over them stalls every table at once. Collect young objects rarely
    # and keep what exists at start out of the collector's way.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    config = uvicorn.Config(
        application,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,  # frames are small; compressing them costs more CPU
        timeout_graceful_shutdown=5,
    )
    uvicorn.Server(config).run(sockets=[listener])
