"""The ladder's measured numbers as JSON (:func:`save_json`, :func:`load_json`), from which
``tajsim ladder --render-only`` writes the document again without playing.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from tajsim.errors import UserError
from tajsim.reporting.ladder.config import LadderData


def save_json(data: LadderData, path: str | Path) -> Path:
    """Write the measured numbers as JSON (``render_markdown`` can be rerun from it)."""
    file = Path(path)
    file.write_text(json.dumps(asdict(data), indent=1, default=float) + "\n")
    return file


def load_json(path: str | Path) -> LadderData:
    """Ladder numbers saved by :func:`save_json`; ``UserError`` if the file is not one."""
    try:
        return LadderData(**json.loads(Path(path).read_text()))
    except (OSError, ValueError, TypeError) as exc:
        raise UserError(f"{path} is not a saved ladder (JSON): {exc}") from None
