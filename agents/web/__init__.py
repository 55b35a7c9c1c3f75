"""The local web page of ``python -m agents.serve``: play, watch and replay every game.

``app.create_app()`` is the Starlette app (games kept in server memory, bounded), ``draw`` renders a
table as SVG from one seat's legal view (``draw_<game>.py`` per game, the ``describe()`` text for a
game without its own drawer), and ``static/`` holds the plain HTML, CSS and JS of the page: no build
step, nothing fetched from the network.
"""
