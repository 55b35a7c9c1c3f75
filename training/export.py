"""Write a trained MaskablePPO zip for shipping: the same policy, a fresh optimizer.

python -m training.export SRC.zip DST.zip

Adam's two moment tensors per weight make up two thirds of a trained model's file; a shipped
baseline needs only the policy. The result still loads with ``MaskablePPO.load`` (for fine-tuning,
with a fresh optimizer) and with ``make_agent("ppo", env_id, path=DST)``, and acts identically.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def export_model(src: Path, dst: Path) -> Path:
    """Save ``src``'s model to ``dst`` with its optimizer state reset; returns ``dst``."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(src, device="cpu")
    policy = model.policy
    policy.optimizer = policy.optimizer_class(
        policy.parameters(), lr=model.lr_schedule(1), **policy.optimizer_kwargs
    )
    model.save(dst)
    return dst


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.export", description=__doc__.splitlines()[0])
    parser.add_argument("src", type=Path, help="a MaskablePPO .zip (e.g. a run's model.zip or a snapshot)")
    parser.add_argument("dst", type=Path, help="where to write the shipped copy")
    args = parser.parse_args(argv)
    if not args.src.is_file():
        parser.error(f"no such model file: {str(args.src)!r}")
    print(export_model(args.src, args.dst))


if __name__ == "__main__":
    main()
