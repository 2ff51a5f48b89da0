"""Report tables: cells as text, Markdown and HTML tables, and byte-stable CSV files."""

from __future__ import annotations

import html
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tajsim.reporting.render.figures import PAGE_WIDTH_PX
from tajsim.running.run_files import atomic_write

#: Rows a report table shows (the CSV file has them all).
MAX_TABLE_ROWS = 40
#: Significant digits of the floats written to CSV files.
CSV_SIGNIFICANT_DIGITS = 6


def round_significant(values: Any, digits: int = CSV_SIGNIFICANT_DIGITS) -> np.ndarray:
    """``values`` (float64 array) rounded to ``digits`` significant digits; whole numbers
    (counts kept as floats) stay exact, -0.0 becomes 0.0, NaN and infinities stay."""
    out = np.array(values, dtype=np.float64).reshape(-1)
    finite = np.isfinite(out) & ~((out == np.round(out)) & (np.abs(out) < 2.0 ** 53))
    # Python's formatting rounds the exact binary value correctly; the decimal is read back.
    out[finite] = [float(f"{x:.{digits}g}") for x in out[finite].tolist()]
    out[out == 0] = 0.0  # no "-0.0"
    return out


def write_csv(frame: pd.DataFrame, path: str | Path, digits: int = CSV_SIGNIFICANT_DIGITS,
              *, index: bool = False) -> None:
    """Write ``frame`` to CSV with its floats rounded to ``digits`` significant digits, so
    that the file does not change with the last bits of a computation.

    Floats are written as the shortest decimal that reads back as the rounded value
    (``0.00255926``, ``1.2e-07``), whole numbers exactly (``1234567.0``), -0.0 as ``0.0``,
    NaN as an empty field;
    integers, text and booleans as they are. The index is written only with ``index=True``
    (as it is). Lines end in a line feed on every platform. The file appears whole or not at
    all (written beside it, then renamed).
    """
    columns = []
    for position in range(frame.shape[1]):  # by position: column names may repeat
        values = frame.iloc[:, position]
        if pd.api.types.is_float_dtype(values.dtype):
            values = pd.Series(round_significant(
                values.to_numpy(dtype=np.float64, na_value=np.nan), digits), index=frame.index)
        elif values.dtype == object:
            values = pd.Series([round_significant([v], digits)[0]
                                if isinstance(v, (float, np.floating)) else v for v in values],
                               index=frame.index, dtype=object)
        columns.append(values)
    out = pd.concat(columns, axis=1) if columns else frame.copy()
    out.columns = frame.columns
    atomic_write(Path(path), out.to_csv(index=index, lineterminator="\n").encode("utf-8"))


_P_COLUMNS = ("p_value", "q_value", "p_holm", "lineup_seat_balance_p")


def format_cell(value: Any, column: str) -> str:
    """One table cell as text: floats with 3 decimals (p-values 2 significant digits, counts
    of shared wins as few decimals as they need), integers as they are (counts with thousands
    separators), booleans yes/no; never "-0.000"."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, str):
        return " ".join(value.split())  # one line: no newlines inside a table cell
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}" if column in ("n", "n_games") or abs(int(value)) >= 10000 \
            else str(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if math.isnan(v):
            return ""
        if column == "wins":  # shared wins count 1/k: 991.5, 12.333
            text = f"{v:,.3f}".rstrip("0").rstrip(".")
        elif column in _P_COLUMNS or column.endswith("p_value"):
            text = f"{v:.2g}" if v >= 1e-3 else f"{v:.1e}"
        elif abs(v) >= 1000:
            text = f"{v:,.0f}"
        else:
            text = f"{v:.3f}"
        return unsigned_zero(text)
    return str(value)


def unsigned_zero(text: str) -> str:
    """``text`` without the sign when it shows a zero ("-0.000" -> "0.000", "+0.0" -> "0.0")."""
    if text[:1] in "+-" and not any(ch in "123456789" for ch in text.split("e")[0]):
        return text[1:]
    return text


def signed(value: float, decimals: int = 1) -> str:
    """``value`` with its sign ("+1.2", "-0.4") and "0.0" rather than "-0.0" or "+0.0"."""
    return unsigned_zero(f"{value:+.{decimals}f}")


def markdown_table(frame: pd.DataFrame, max_rows: int = MAX_TABLE_ROWS) -> str:
    """A GitHub-flavoured Markdown table (no ``tabulate`` needed).

    Floats get 3 decimals (p-values 2 significant digits), integers as is, booleans yes/no;
    ``|`` in cells is escaped; at most ``max_rows`` rows (a last line says how many were left
    out).
    """
    shown = frame.head(max_rows)
    cols = [str(c) for c in shown.columns]
    lines = ["| " + " | ".join(c.replace("|", "\\|") for c in cols) + " |"]
    aligns = []
    for c in shown.columns:
        numeric = pd.api.types.is_numeric_dtype(shown[c]) and not pd.api.types.is_bool_dtype(
            shown[c])
        aligns.append("---:" if numeric else ":---")
    lines.append("| " + " | ".join(aligns) + " |")
    for row in shown.itertuples(index=False):
        cells = [format_cell(v, str(c)).replace("|", "\\|") for v, c in zip(row, cols)]
        lines.append("| " + " | ".join(cells) + " |")
    if len(frame) > max_rows:
        lines.append(f"\n*{len(frame) - max_rows} more rows in the CSV file.*")
    return "\n".join(lines)


#: Text cells longer than this may wrap (with a minimum width); shorter ones stay on one line.
_WRAP_CHARS = 32


def html_table(frame: pd.DataFrame, max_rows: int = MAX_TABLE_ROWS) -> str:
    """The table as HTML inside a horizontally scrolling box (``div.table-scroll``), so a
    table wider than the page scrolls inside the column instead of running off the page; one
    that probably is (:func:`is_wide`) keeps its first column in view while it scrolls."""
    shown = frame.head(max_rows)
    cols = [str(c) for c in shown.columns]
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = []
    for row in shown.itertuples(index=False):
        cells = []
        for v, c in zip(row, cols):
            text = format_cell(v, c)
            if isinstance(v, (int, float, np.integer, np.floating)) and \
                    not isinstance(v, (bool, np.bool_)):
                cls = ' class="num"'
            elif len(text) > _WRAP_CHARS:
                cls = ' class="long"'
            else:
                cls = ""
            cells.append(f"<td{cls}>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    more = ""
    if len(frame) > max_rows:
        more = f'<p class="more">{len(frame) - max_rows} more rows in the CSV file.</p>'
    box = "table-scroll wide" if is_wide(shown) else "table-scroll"
    return (f'<div class="{box}"><table><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table></div>{more}")


def is_wide(frame: pd.DataFrame) -> bool:
    """Whether the HTML table of ``frame`` is probably wider than the column: about 7.5 px a
    character of the longest header or cell of each column, plus padding (an estimate for the
    caption's hint; the scrolling box holds any width)."""
    width = 0.0
    for column in frame.columns:
        cells = [format_cell(v, str(column)) for v in frame[column]]
        longest = max([len(str(column)), *(min(len(c), _WRAP_CHARS) for c in cells)])
        width += 7.5 * longest + 15
    return width > PAGE_WIDTH_PX


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"
