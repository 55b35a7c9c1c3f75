"""Play, watch and replay every game in the browser: a local web app.

python -m agents.serve [--host 127.0.0.1] [--port 8000]

then open http://127.0.0.1:8000. Choose a game, its player count and keywords, and who sits in each
seat (you, or any agent: random, heuristic, mcts with a small budget, the shipped ppo and rllib
models); the table is drawn from your seat's view, the legal actions are buttons, agents move one
at a time (step or auto-play), and a finished game steps back and forth and downloads as a record
(``agents.records``) that the page can upload and replay. Needs the ``serve`` extra
(``pip install -e '.[serve]'``): Starlette and uvicorn. The page is plain HTML, CSS and JS served
from ``agents/web/static``; nothing is fetched from the network. ``docs/play.md`` has the details.
"""

from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m agents.serve", description="Play, watch and replay every game in the browser."
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument(
        "--max-games", type=int, default=None, help="games kept in memory (default: agents.web.app.MAX_GAMES)"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not 0 < args.port < 65536:
        print(
            f"python -m agents.serve: error: --port must be from 1 to 65535, got {args.port}", file=sys.stderr
        )
        return 2
    if args.max_games is not None and args.max_games < 1:
        print(
            f"python -m agents.serve: error: --max-games must be at least 1, got {args.max_games}",
            file=sys.stderr,
        )
        return 2
    try:
        import uvicorn

        from agents.web.app import MAX_GAMES, create_app
    except ModuleNotFoundError as exc:
        print(
            f"python -m agents.serve: error: {exc.name} is not installed; pip install -e '.[serve]'",
            file=sys.stderr,
        )
        return 2
    app = create_app(args.max_games or MAX_GAMES)
    print(f"mystic-envs: open http://{args.host}:{args.port} (Ctrl-C stops the server)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
