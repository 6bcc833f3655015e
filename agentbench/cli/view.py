"""`agentbench view`: open the results database in a local web app."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    app.command("view")(view)


def view(
    db: Path = typer.Option(Path("agentbench.db"), "--db", help="SQLite results database."),
    port: int = typer.Option(8765, "--port", min=0, max=65535, help="TCP port (0: any free one)."),
    host: str = typer.Option(
        "127.0.0.1",
        "--host",
        help="Loopback by default; the pages hold prompts and answers. Off loopback, the "
        "printed URL carries a token the viewer asks for.",
    ),
) -> None:
    """Browse runs, episodes turn by turn, comparisons and two runs side by side."""
    from agentbench.view import serve

    serve(
        db,
        host=host,
        port=port,
        announce=lambda url: typer.echo(f"agentbench view on {url} over {db} (Ctrl-C stops it)"),
    )
