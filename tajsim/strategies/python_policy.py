"""Pure-Python strategies: a documented interface and a loader for strategy files (plug-ins).

Writing a strategy
------------------
A strategy is a class with a ``choose(view, legal) -> int`` method (subclass
:class:`PythonPolicy` for the defaults). ``view`` is the game's view of the seat (Taj Mahal:
:class:`tajsim.games.tajmahal.strategies.view.PlayerView`): everything the seat may see, and
nothing else (no other hand, no deck order, no chance stream). ``legal`` lists the legal action
numbers; return one of them::

    class MyPolicy(PythonPolicy):
        name = "mine"
        game = "tajmahal"
        description = "plays its first legal bid, withdraws when it leads the elephant"

        def choose(self, view, legal):
            ...

Save it in a file (the repository's ``strategies/`` folder holds examples) and use it as
``py:strategies/my_file.py`` wherever seats are given as text (:func:`tajsim.play.mixed.
play_game`, ``tajsim replay``, the ladder). The file is loaded by path; the folder is not a
package. A policy that names its ``game`` is refused at another game's table.

Speed: a Python seat goes through the Python loop of :mod:`tajsim.play.mixed` (one view built
per decision), so a table with a Python seat runs at a few hundred games per second at best,
where the compiled batch kernels run thousands; ``docs/strategies.md`` gives measured numbers.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path
from typing import Any

from tajsim.errors import UserError

__all__ = ["PythonPolicy", "load_policy_file"]


class PythonPolicy:
    """Base class of pure-Python strategies. Override :meth:`choose`.

    ``game`` names the game the policy plays ("" for any); ``reset(n_players, seat)`` is called
    at the start of every game (optional state); ``choose(view, legal)`` must return one of
    ``legal``.
    """

    name = "python"
    game = ""
    description = "a pure-Python strategy"

    def reset(self, n_players: int, seat: int) -> None:  # noqa: B027 - optional hook
        pass

    def choose(self, view: Any, legal: list[int]) -> int:
        raise NotImplementedError


def load_policy_file(path: str | Path) -> PythonPolicy:
    """Load a strategy file by path and return an instance of its policy class.

    The file must define exactly one class with a ``choose`` method defined in the file
    (usually a :class:`PythonPolicy` subclass), or name one with ``POLICY = ClassName``.
    """
    file = Path(path)
    if not file.is_file():
        raise UserError(f"strategy file {str(file)!r} does not exist; expected a Python file "
                        "defining a policy class")
    mod_name = f"tajsim_user_strategy_{abs(hash(str(file.resolve())))}"
    spec = importlib.util.spec_from_file_location(mod_name, file)
    if spec is None or spec.loader is None:
        raise UserError(f"cannot load strategy file {str(file)!r}; expected a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - report any error in user code as one line
        raise UserError(f"strategy file {str(file)!r} failed to load: {exc!r}") from None
    cls: type | None = getattr(module, "POLICY", None)
    if cls is None:
        found: list[type] = [
            obj for obj in vars(module).values()
            if inspect.isclass(obj) and obj.__module__ == mod_name and hasattr(obj, "choose")
        ]
        if len(found) != 1:
            raise UserError(
                f"strategy file {str(file)!r} must define one policy class with a choose() "
                f"method (or POLICY = ClassName); found {len(found)}"
            )
        cls = found[0]
    policy = cls()
    if not getattr(policy, "name", None) or policy.name == "python":
        policy.name = file.stem
    return policy
