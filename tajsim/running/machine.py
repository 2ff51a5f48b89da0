"""What machine a measurement comes from: CPU, cores, memory, load and library versions.

Every benchmark table, ``tajsim bench`` and the strength ladder record it (one description, one
place).
"""

from __future__ import annotations

import os
import platform
import sys
from typing import Any

import numpy as np

from tajsim.running.executors import available_cores

__all__ = ["describe_machine", "machine_info"]


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _physical_cores() -> int | None:
    try:
        import psutil

        return psutil.cpu_count(logical=False)
    except Exception:  # noqa: BLE001 - optional
        return None


def _memory_gib() -> float | None:
    try:
        import psutil

        return psutil.virtual_memory().total / 2**30
    except Exception:  # noqa: BLE001 - optional
        try:
            return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
        except (ValueError, OSError, AttributeError):
            return None


def machine_info() -> dict[str, Any]:
    """CPU model, cores, memory, load and library versions of this machine."""
    import numba

    try:
        load = os.getloadavg()
    except OSError:  # pragma: no cover - not Unix
        load = (float("nan"),) * 3
    mem = _memory_gib()
    return {
        "cpu": _cpu_model(),
        "cores_usable": available_cores(),
        "cores_logical": os.cpu_count(),
        "cores_physical": _physical_cores(),
        "memory_gib": round(mem, 1) if mem is not None else None,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "threading_layer": _threading_layer(),
        "load_avg_1m": round(load[0], 2),
        "executable": sys.executable,
        "date": __import__("datetime").date.today().isoformat(),
    }


def _threading_layer() -> str:
    import numba

    try:
        return str(numba.threading_layer())
    except ValueError:  # no parallel kernel has run yet
        return str(numba.config.THREADING_LAYER)


def describe_machine(info: dict[str, Any] | None = None) -> str:
    """One line: ``AMD EPYC, 2 cores (2 logical), 23.4 GiB, Python 3.11.7, numba 0.61.2 ...``."""
    info = machine_info() if info is None else info
    cores = f"{info['cores_usable']} usable cores ({info['cores_logical']} logical"
    if info.get("cores_physical"):
        cores += f", {info['cores_physical']} physical"
    cores += ")"
    return (f"{info['cpu']}, {cores}, {info['memory_gib']} GiB RAM, {info['os']}, "
            f"Python {info['python']}, numba {info['numba']}, numpy {info['numpy']}")
