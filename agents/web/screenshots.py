"""Screenshots of the page for every game, for the README and docs/play.md.

python -m agents.web.screenshots [--out docs/screenshots] [--moves 8]

Starts ``python -m agents.serve`` on a free local port, opens each game in headless Chromium with
you against the heuristic (random where a game has none), plays ``--moves`` of your moves by a
random legal button (seeded), and saves ``<env_id>.png`` (quantized to a palette, so each stays small).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import numpy as np

import mystic_envs
from agents.web.browser import chromium, running_server

SEEDS = {"elemystic_v0": 4, "mystria_v0": 3, "tarot_dice_v0": 6}


def _shrink(png: bytes) -> bytes:
    # A page is a few flat colours: a 256-colour palette keeps it sharp at a third of the size.
    try:
        from PIL import Image
    except ModuleNotFoundError:
        return png
    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=256, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def take(out_dir: Path, moves: int, env_ids: tuple[str, ...] = mystic_envs.ENV_IDS) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with running_server() as url, chromium() as browser:
        page = browser.new_page(viewport={"width": 1360, "height": 900})
        for env_id in env_ids:
            page.goto(url)
            page.select_option("#game", env_id)
            agents = page.eval_on_selector("#seat-1", "e => Array.from(e.options).map(o => o.value)")
            page.select_option("#seat-1", "heuristic" if "heuristic" in agents else "random")
            page.fill("#seed", str(SEEDS.get(env_id, 1)))
            page.click("#start")
            page.wait_for_selector("#board:not([hidden])")
            page.select_option("#speed", "0")
            rng = np.random.default_rng(SEEDS.get(env_id, 1))
            for _ in range(moves):
                page.wait_for_selector("#actions button, #board[data-over=true]")
                if page.get_attribute("#board", "data-over") == "true":
                    break
                before = page.get_attribute("#board", "data-moves")
                buttons = page.locator("#actions button")
                buttons.nth(int(rng.integers(buttons.count()))).click()
                page.wait_for_function(
                    "m => document.getElementById('board').dataset.moves !== m", arg=before
                )
            page.wait_for_selector("#actions button, #board[data-over=true]")
            path = out_dir / f"{env_id}.png"
            path.write_bytes(_shrink(page.screenshot(full_page=True)))
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agents.web.screenshots", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"), help="folder for the PNGs")
    parser.add_argument("--moves", type=int, default=8, help="your moves played before each screenshot")
    args = parser.parse_args(argv)
    for path in take(args.out, args.moves):
        print(f"{path} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
