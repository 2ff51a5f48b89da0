"""tajsim's games in other game-AI frameworks: OpenSpiel, PettingZoo and Gymnasium.

The adapters live in submodules (``tajsim.interop.openspiel``, ``tajsim.interop.pettingzoo``,
``tajsim.interop.gymnasium``) and need the optional extra ``pip install 'tajsim[interop]'``.
``import tajsim`` never imports these frameworks; importing an adapter without its framework
raises a one-line :class:`~tajsim.errors.UserError` with the install hint.
``tajsim.interop.vector`` (many games stepped in one compiled call, numpy in and out) needs no
framework.
"""

from __future__ import annotations

import importlib
from typing import Any

from tajsim.errors import UserError

__all__ = ["INSTALL_HINT", "require"]

#: What to install for any adapter of this package.
INSTALL_HINT = "pip install 'tajsim[interop]'"


def require(module: str, what: str) -> Any:
    """Import ``module`` (a framework), or raise a one-line ``UserError`` naming ``what``.

    Typed ``Any``: the adapters subclass the frameworks' classes (``gymnasium.Env``), which the
    type checker cannot follow through a module imported by name."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise UserError(f"{what} needs the {module.split('.')[0]} package, which is not "
                        f"installed; install it with: {INSTALL_HINT}") from None
