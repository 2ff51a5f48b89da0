"""Report blocks (headings, paragraphs, tables, figures, lists, contents), the summary and
contents a long report opens with, and :class:`ReportContext`, which sections write into."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

if "matplotlib.pyplot" not in sys.modules:  # no screen needed
    matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd

from tajsim.analysis.registry import AnalysisCache
from tajsim.engine.spec import GameSpec
from tajsim.reporting.render.figures import DPI, save_png, smallest_font_pt
from tajsim.reporting.render.tables import write_csv
from tajsim.reporting.render.wording import describe_simulation


@dataclass
class Heading:
    level: int
    text: str


@dataclass
class Para:
    text: str


@dataclass
class Table:
    frame: pd.DataFrame
    caption: str
    csv_name: str | None = None


@dataclass
class Figure:
    file_name: str
    caption: str
    width_px: int = 0
    height_px: int = 0
    #: Height of the figure's smallest text in the PNG's own pixels.
    min_text_px: float = float("nan")


@dataclass
class Bullets:
    """A list of short statements (``**bold**`` and `code` spans as in paragraphs)."""

    items: list[str]


@dataclass
class Contents:
    """The table of contents: (heading text, anchor) of every section."""

    entries: list[tuple[str, str]]


Block = Heading | Para | Table | Figure | Bullets | Contents


def anchor(text: str) -> str:
    """The anchor of a heading, as GitHub makes it for Markdown (lower case, punctuation left
    out, spaces as hyphens); the HTML report gives its headings the same ids."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def short_finding(text: str) -> str:
    """A section's headline statement cut for the summary: its sentences up to the first that
    gives an interval ("[low, high]"); when a sentence left out calls the finding an
    association, the summary says so too (it must not read as a causal claim)."""
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z*])", text.strip())
    kept: list[str] = []
    for sentence in sentences:
        kept.append(sentence)
        if "[" in sentence:
            break
    dropped = " ".join(sentences[len(kept):])
    out = " ".join(kept)
    if "association" in dropped and "association" not in out:
        out += " (An association in simulated play, not a causal effect.)"
    return out


def front_matter(blocks: list[Block], findings: list[tuple[str, str]]) -> list[Block]:
    """What a long report opens with: a summary of the sections' headline statements
    (``findings``: (section heading, statement)) and a table of contents of the level-2
    headings of ``blocks``."""
    out: list[Block] = []
    if findings:
        out += [Heading(2, "Summary of findings"),
                Para("The headline statement of each section (95% intervals; n as stated); the "
                     "sections give the details and the caveats."),
                Bullets([f"**{section}.** {short_finding(text)}" if section
                         else short_finding(text) for section, text in findings])]
    headings = [b.text for b in blocks if isinstance(b, Heading) and b.level == 2]
    if len(headings) > 1:
        out += [Heading(2, "Contents"), Contents([(h, anchor(h)) for h in headings])]
    return out


@dataclass
class ReportContext:
    results: pd.DataFrame
    out_dir: Path
    config: dict[str, Any]
    components: Any
    spec: GameSpec
    cache: AnalysisCache
    blocks: list[Block] = field(default_factory=list)
    #: The sections' headline statements (heading, text), for the summary at the top.
    findings: list[tuple[str, str]] = field(default_factory=list)
    #: What was simulated, for figure captions drawn without a results frame (a run without
    #: records); by default the captions describe the frame the figure shows.
    description: str = ""
    n_figures: int = 0
    n_tables: int = 0
    files: list[Path] = field(default_factory=list)

    # -- helpers ----------------------------------------------------------------------------
    def analysis(self, name: str, **kwargs: Any) -> pd.DataFrame:
        """Analysis ``name`` of the results (from the shared cache: computed once)."""
        return self.cache.get(name, **kwargs)

    def heading(self, level: int, text: str) -> None:
        self.blocks.append(Heading(level, text))

    def para(self, text: str) -> None:
        self.blocks.append(Para(text))

    def headline(self, text: str) -> None:
        """A paragraph that states the section's main finding (with n and its interval); the
        report's summary at the top repeats it under the section's name."""
        self.para(text)
        section = next((b.text for b in reversed(self.blocks) if isinstance(b, Heading)
                        and b.level == 2), "")
        self.findings.append((section, text))

    def table(self, frame: pd.DataFrame, caption: str, name: str | None = None,
              full: pd.DataFrame | None = None) -> None:
        """Show ``frame``; write ``full`` (default ``frame``) to ``table_<name>.csv``."""
        self.n_tables += 1
        csv_name = None
        if name is not None:
            csv_name = self.csv(frame if full is None else full, f"table_{name}")
            caption = f"{caption} Full table: `{csv_name}`."
        self.blocks.append(Table(frame, f"Table {self.n_tables}. {caption}", csv_name))

    def csv(self, frame: pd.DataFrame, name: str) -> str:
        """Write ``frame`` to ``<name>.csv`` (:func:`write_csv`); returns the file name."""
        path = self.out_dir / f"{name}.csv"
        write_csv(frame, path)
        self.files.append(path)
        return path.name

    def figure(self, fig: plt.Figure, name: str, what: str,
               frame: pd.DataFrame | None) -> None:
        """Save ``fig`` as ``fig_<name>.png`` with a caption: ``what`` + what was simulated
        (``frame`` described, or :attr:`description` when ``frame`` is None)."""
        self.n_figures += 1
        file_name = f"fig_{name}.png"
        path = self.out_dir / file_name
        width_px, height_px = save_png(fig, path)
        min_text_px = smallest_font_pt(fig) * DPI / 72
        plt.close(fig)
        self.files.append(path)
        simulated = (self.description if frame is None
                     else describe_simulation(frame, self.config))
        caption = f"Figure {self.n_figures}. {what} {simulated}"
        self.blocks.append(Figure(file_name, caption, width_px, height_px, min_text_px))
