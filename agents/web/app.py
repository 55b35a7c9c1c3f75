"""The web app of ``python -m agents.serve``: a Starlette app over games kept in server memory.

JSON API (every error is a 4xx answer ``{"error": "one line"}``; the server keeps running):

- ``GET  /api/catalog``: the games (``mystic_envs.ENV_IDS``), their player counts, keywords and the
  agents that can sit at each.
- ``POST /api/games`` ``{"env_id", "num_players", "kwargs", "seats": ["human", "mcts", ...], "seed"}``:
  a new game; the answer gives its ``id`` and a ``token`` per human seat. A token is what shows a
  seat's hidden cards: a page without one sees the public table (or, in a game with no human seat,
  everything, labelled as such).
- ``GET  /api/games/{id}?token=T&view=V&step=K``: the table at step ``K`` (default: now) as the
  viewer may see it: an SVG drawn on the server, the moves so far, and the legal actions when it is
  the viewer's turn. ``view`` (``all``, ``public`` or a seat) is for games with no human seat.
- ``POST /api/games/{id}/move`` ``{"token", "action"}``: a human seat's move.
- ``POST /api/games/{id}/advance``: the agent to move plays one move (the page's step and
  auto-play controls call it).
- ``GET  /api/games/{id}/record``: the finished game as a record (``agents.records``), to download.
- ``POST /api/replays`` (a record as JSON): replays it exactly and opens it like a finished game.

Hidden information: what a page gets is built for one viewer only (``agents.web.games``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from agents.web.games import (
    MAX_GAMES,
    BadRequest,
    GameStore,
    Session,
    catalog,
    json_object,
    new_session,
    one_line,
    replay_session,
    view_payload,
)

STATIC_DIR = Path(__file__).resolve().parent / "static"


# -- the app -----------------------------------------------------------------------------------


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _read_json(request: Request) -> Any:
    try:
        return await request.json()
    except ValueError as exc:
        raise BadRequest(f"the request body is not valid JSON: {one_line(exc)}") from None


def create_app(limit: int = MAX_GAMES) -> Starlette:
    """The Starlette app; ``limit`` bounds the games kept in memory."""
    store = GameStore(limit)
    game_catalog = catalog()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html")

    async def get_catalog(request: Request) -> Response:
        return JSONResponse(game_catalog)

    def create_game(body: Any) -> Response:
        session = new_session(json_object(body, "a new game"))
        store.add(session)
        tokens = {str(seat): token for token, seat in session.tokens.items()}
        return JSONResponse({"id": session.id, "tokens": tokens}, status_code=201)

    async def post_game(request: Request) -> Response:
        body = await _read_json(request)
        return await run_in_threadpool(create_game, body)

    def get_game(request: Request) -> Response:
        session = store.get(request.path_params["game_id"])
        q = request.query_params
        with session.lock:
            return JSONResponse(view_payload(session, q.get("token"), q.get("view"), q.get("step")))

    async def post_move(request: Request) -> Response:
        body = json_object(await _read_json(request), "a move")
        session = store.get(request.path_params["game_id"])
        return await run_in_threadpool(_move, session, body)

    def _move(session: Session, body: dict[str, Any]) -> Response:
        token = body.get("token")
        if not isinstance(token, str) or token not in session.tokens:
            raise BadRequest("a move needs the token of a human seat of this game", 403)
        seat = session.tokens[token]
        action = body.get("action")
        with session.lock:
            if session.over:
                raise BadRequest("the game is over: no more moves", 409)
            to_move = session.to_move()
            if to_move != seat:
                raise BadRequest(f"it is player_{to_move}'s turn, not yours (you are player_{seat})", 409)
            num_actions = session.base.action_space(session.env.agent_selection).n
            if isinstance(action, bool) or not isinstance(action, int):
                raise BadRequest(f"action must be an integer from 0 to {num_actions - 1}, got {action!r}")
            if not 0 <= action < num_actions:
                raise BadRequest(f"action {action} is outside the action space (0 to {num_actions - 1})")
            state = session.base.game_state
            if not state.legal_mask()[action]:
                raise BadRequest(f"illegal move: {one_line(Exception(state.illegal_message(action)))}")
            session.play(seat, action)
            return JSONResponse(view_payload(session, token, None, None))

    def _advance(session: Session, token: str | None, view: str | None) -> Response:
        with session.lock:
            if session.over:
                raise BadRequest("the game is over: no more moves", 409)
            seat = session.to_move()
            if seat not in session.agents:
                raise BadRequest(f"player_{seat} is a human seat: the game waits for their move", 409)
            agent = session.env.agent_selection
            action = int(session.agents[seat].act(session.env, agent))
            session.play(seat, action)
            return JSONResponse(view_payload(session, token, view, None))

    async def post_advance(request: Request) -> Response:
        body = await _read_json(request) if await request.body() else {}
        body = json_object(body, "an advance request")
        session = store.get(request.path_params["game_id"])
        token = body.get("token") or None
        if token is not None and token not in session.tokens:
            raise BadRequest("this token opens no seat of this game", 403)
        view = body.get("view")
        return await run_in_threadpool(_advance, session, token, None if view is None else str(view))

    def get_record(request: Request) -> Response:
        session = store.get(request.path_params["game_id"])
        if not session.over:
            raise BadRequest("the game is not over yet: a record holds every seat's secrets", 409)
        assert session.record is not None
        name = f"{session.env_id}-{session.id}.json"
        return JSONResponse(session.record, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def post_replay(request: Request) -> Response:
        session = await run_in_threadpool(replay_session, await request.body())
        store.add(session)
        return JSONResponse({"id": session.id, "tokens": {}}, status_code=201)

    async def bad_request(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, BadRequest)
        return _error(str(exc), exc.status)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if request.url.path.startswith("/api/"):
            return _error(exc.detail, exc.status_code)
        return Response(exc.detail, status_code=exc.status_code)

    async def server_error(request: Request, exc: Exception) -> Response:
        # A bug (in an agent, an engine) answers one request; the server and its other games go on.
        return _error(f"internal error: {type(exc).__name__}: {one_line(exc)}", 500)

    routes = [
        Route("/", index),
        Route("/api/catalog", get_catalog),
        Route("/api/games", post_game, methods=["POST"]),
        Route("/api/games/{game_id}", get_game),
        Route("/api/games/{game_id}/move", post_move, methods=["POST"]),
        Route("/api/games/{game_id}/advance", post_advance, methods=["POST"]),
        Route("/api/games/{game_id}/record", get_record),
        Route("/api/replays", post_replay, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={BadRequest: bad_request, HTTPException: http_error, Exception: server_error},
    )
    app.state.store = store
    return app


__all__ = ["MAX_GAMES", "STATIC_DIR", "create_app"]
