"""`thievery serve`: the multiplayer web server (built in the server issue)."""

import typer

from thievery.cli.app import app


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8000, help="port to listen on"),
    db: str | None = typer.Option(None, help="database URL (default: sqlite thievery.db)"),
) -> None:
    """Start the web server and print the URL to open."""
    typer.echo("the web server is not built yet; try: thievery play schattendieb")
    raise typer.Exit(1)
