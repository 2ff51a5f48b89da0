"""Whole pages from a list of blocks: Markdown, and self-contained HTML with its CSS."""

from __future__ import annotations

import base64
import html
from pathlib import Path

from tajsim.reporting.render.blocks import (
    Block,
    Bullets,
    Contents,
    Figure,
    Heading,
    Para,
    Table,
    anchor,
)
from tajsim.reporting.render.figures import PAGE_WIDTH_PX
from tajsim.reporting.render.tables import MAX_TABLE_ROWS, html_table, is_wide, markdown_table


def inline_md(text: str) -> str:
    """Escape text for HTML and render `code` and **bold** spans."""
    out = html.escape(text)
    parts = out.split("`")
    out = "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
    parts = out.split("**")
    return "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts))


CSS = f"""
body {{ font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       max-width: {PAGE_WIDTH_PX}px; margin: 2em auto; padding: 0 1em; color: #222;
       line-height: 1.5; }}
h1 {{ border-bottom: 2px solid #b58b2a; padding-bottom: .2em; }}
h2 {{ border-bottom: 1px solid #ddd; padding-bottom: .15em; margin-top: 2em; }}
.table-scroll {{ max-width: 100%; overflow-x: auto; margin: .6em 0 .3em; }}
table {{ border-collapse: collapse; font-size: 0.86em; }}
th, td {{ border: 1px solid #d0d0d0; padding: 3px 7px; white-space: nowrap; }}
td {{ background: #fff; }}
td.long {{ white-space: normal; min-width: 14em; }}
th {{ background: #f3efe2; text-align: left; }}
td.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
tr:nth-child(even) td {{ background: #fafafa; }}
.table-scroll.wide th:first-child, .table-scroll.wide td:first-child {{
  position: sticky; left: 0; z-index: 1; box-shadow: 2px 0 2px -1px #bbb; }}
figure {{ margin: 1.2em 0; }}
figure img {{ display: block; max-width: 100%; height: auto;
             outline: 1px solid #e4e4e4; outline-offset: -1px; }}
figcaption, .caption {{ font-size: 0.88em; color: #555; margin-top: .3em; }}
code {{ background: #f4f4f4; padding: 0 3px; border-radius: 3px; }}
.more {{ font-size: 0.85em; color: #777; font-style: italic; }}
ul.contents {{ columns: 2; }}
"""


def render_markdown(title: str, blocks: list[Block]) -> str:
    out = [f"# {title}", ""]
    for b in blocks:
        if isinstance(b, Heading):
            out += ["#" * b.level + " " + b.text, ""]
        elif isinstance(b, Para):
            out += [b.text, ""]
        elif isinstance(b, Table):
            out += [f"*{b.caption}*", "", markdown_table(b.frame), ""]
        elif isinstance(b, Figure):
            out += [f"![{b.caption.split('.')[0]}]({b.file_name})", "", f"*{b.caption}*", ""]
        elif isinstance(b, Bullets):
            out += [f"- {item}" for item in b.items] + [""]
        elif isinstance(b, Contents):
            out += [f"- [{text}](#{target})" for text, target in b.entries] + [""]
    return "\n".join(out)


def render_html(title: str, blocks: list[Block], out_dir: Path) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{html.escape(title)}</title>", f"<style>{CSS}</style></head><body>",
           f"<h1>{html.escape(title)}</h1>"]
    for b in blocks:
        if isinstance(b, Heading):
            ident = f' id="{anchor(b.text)}"' if b.level == 2 else ""
            out.append(f"<h{b.level}{ident}>{html.escape(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            out.append(f"<p>{inline_md(b.text)}</p>")
        elif isinstance(b, Bullets):
            out.append("<ul>" + "".join(f"<li>{inline_md(i)}</li>" for i in b.items) + "</ul>")
        elif isinstance(b, Contents):
            out.append('<ul class="contents">' + "".join(
                f'<li><a href="#{target}">{html.escape(text)}</a></li>'
                for text, target in b.entries) + "</ul>")
        elif isinstance(b, Table):
            wide = is_wide(b.frame.head(MAX_TABLE_ROWS))
            hint = " (A wide table: scroll it sideways.)" if wide else ""
            out.append(f'<p class="caption">{inline_md(b.caption)}{hint}</p>'
                       f"{html_table(b.frame)}")
        elif isinstance(b, Figure):
            data = base64.b64encode((out_dir / b.file_name).read_bytes()).decode("ascii")
            size = (f' width="{b.width_px}" height="{b.height_px}"'
                    f' data-min-text-px="{b.min_text_px:.1f}"' if b.width_px else "")
            out.append(f'<figure><img alt="{html.escape(b.caption.split(".")[0])}"{size} '
                       f'src="data:image/png;base64,{data}"><figcaption>'
                       f"{inline_md(b.caption)}</figcaption></figure>")
    out.append("</body></html>")
    return "\n".join(out)
