"""The HTML report looked at in a real browser: headless Chromium renders a generated
``report.html`` and a script added to a copy of the page measures, from the page itself, that no
table or figure runs past the column and that every figure is shown at a size where its smallest
text stays readable (:data:`tajsim.reporting.render.MIN_TEXT_PX`).

Chromium comes from Debian's ``chromium`` package (``.ci/run`` installs it). Without it the test
is skipped, unless ``TAJSIM_REQUIRE_BROWSER=1`` (set by ``.ci/run``), which makes it fail.
"""

from __future__ import annotations

import base64
import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results
from tajsim.reporting.render import MIN_TEXT_PX, save_png
from tajsim.reporting.report import build_report

#: A desktop browser window: the column (1050 px) and its margins fit.
WINDOW = (1280, 1000)

#: Added before ``</body>`` of a copy of the page: once everything is loaded it measures the
#: layout and writes the result, as JSON, into a hidden ``<pre id="layout-check">``.
MEASURE_SCRIPT = """
<script>
window.addEventListener("load", function () {
  var body = document.body, style = getComputedStyle(body), box = body.getBoundingClientRect();
  var left = box.left + parseFloat(style.paddingLeft);
  var right = box.right - parseFloat(style.paddingRight);
  var problems = [], tables = [], figures = [];
  function outside(r) { return r.left < left - 0.5 || r.right > right + 0.5; }
  document.querySelectorAll("table").forEach(function (table, i) {
    // What the reader sees of a table is its scrolling box, if it has one.
    var shown = table.closest(".table-scroll") || table;
    var r = shown.getBoundingClientRect();
    tables.push({width: r.width, table_width: table.getBoundingClientRect().width,
                 scrolls: shown !== table && shown.scrollWidth > shown.clientWidth});
    if (outside(r)) problems.push("table " + (i + 1) + " overflows the column: " +
                                  r.left.toFixed(0) + ".." + r.right.toFixed(0) + " px");
  });
  document.querySelectorAll("img").forEach(function (img, i) {
    var r = img.getBoundingClientRect();
    var textPx = parseFloat(img.dataset.minTextPx);
    var scale = img.naturalWidth ? r.width / img.naturalWidth : 0;
    figures.push({width: r.width, natural_width: img.naturalWidth, scale: scale,
                  min_text_px: textPx * scale});
    if (!img.naturalWidth) problems.push("figure " + (i + 1) + " did not load");
    if (outside(r)) problems.push("figure " + (i + 1) + " overflows the column: " +
                                  r.left.toFixed(0) + ".." + r.right.toFixed(0) + " px");
    if (!(textPx * scale >= MIN_TEXT_PX)) {
      problems.push("figure " + (i + 1) + ": smallest text " + (textPx * scale).toFixed(1) +
                    " px at its displayed size (" + r.width.toFixed(0) + " of " +
                    img.naturalWidth + " px)");
    }
  });
  var page = document.documentElement;
  if (page.scrollWidth > page.clientWidth) {
    problems.push("the page scrolls sideways: " + page.scrollWidth + " > " +
                  page.clientWidth + " px");
  }
  var out = document.createElement("pre");
  out.id = "layout-check";
  out.hidden = true;
  out.textContent = JSON.stringify({column: [left, right], tables: tables, figures: figures,
                                    problems: problems});
  body.appendChild(out);
});
</script>
""".replace("MIN_TEXT_PX", repr(MIN_TEXT_PX))


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def measure_layout(page: Path, work: Path, window: tuple[int, int] = WINDOW) -> dict:
    """Render a copy of ``page`` (with :data:`MEASURE_SCRIPT`) in headless Chromium and return
    what the script measured: ``column`` (its left and right edge, px), ``tables``,
    ``figures`` and ``problems`` (one sentence each)."""
    chromium = find_chromium()
    assert chromium, "chromium is not installed (apt-get install chromium)"
    text = page.read_text(encoding="utf-8")
    assert text.count("</body>") == 1
    copy = work / f"measured-{page.parent.name}-{page.name}"
    copy.write_text(text.replace("</body>", MEASURE_SCRIPT + "</body>"), encoding="utf-8")
    profile = work / "chromium-profile"
    profile.mkdir(exist_ok=True)
    # The flags keep a headless Chromium off the network (the closed network refuses its
    # background connections) and out of the user's profile.
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}",
               "--hide-scrollbars", f"--window-size={window[0]},{window[1]}",
               "--virtual-time-budget=10000", "--dump-dom", copy.resolve().as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="layout-check"[^>]*>(.*?)</pre>', done.stdout, flags=re.S)
    assert found, f"no layout result from chromium (exit {done.returncode}): " \
                  f"{done.stderr.strip()[-500:]}"
    return json.loads(html.unescape(found.group(1)))


@pytest.fixture(scope="module")
def browser() -> str:
    chromium = find_chromium()
    if chromium is None:
        if os.environ.get("TAJSIM_REQUIRE_BROWSER") == "1":
            pytest.fail("TAJSIM_REQUIRE_BROWSER=1 but chromium is not installed")
        pytest.skip("chromium is not installed (apt-get install chromium; .ci/run does)")
    return chromium


@pytest.fixture(scope="module")
def wide_report(tmp_path_factory) -> Path:
    """A report with every section, four player counts (multi-panel figures), many
    strategies and the 24-column seat-advantage table."""
    runs = [make_synthetic_results(160, n_players=p, seed=80 + p, n_setups=40,
                                   strategies=("alpha", "beta", "gamma", "delta", "eps"),
                                   strategy_strength={"alpha": 0.6, "eps": -0.4},
                                   seat_effect=[0.2] + [0.0] * (p - 1), setup_effect_sd=0.2)
            for p in (2, 3, 4, 5)]
    results = pd.concat(runs, ignore_index=True)
    out = tmp_path_factory.mktemp("browser-report")
    build_report(results, out, title="Browser check", config={"name": "browser", "seed": 80})
    return out / "report.html"


def test_report_fits_the_page_in_a_browser(browser, wide_report, tmp_path):
    layout = measure_layout(wide_report, tmp_path)
    assert layout["problems"] == []
    assert len(layout["figures"]) >= 9 and len(layout["tables"]) >= 15
    # The wide tables are there and scroll inside their box rather than off the page.
    assert any(t["scrolls"] for t in layout["tables"])
    assert all(f["min_text_px"] >= MIN_TEXT_PX for f in layout["figures"])


def test_the_check_finds_an_over_wide_table_and_a_shrunken_figure(browser, wide_report,
                                                                   tmp_path):
    """The check can fail: a table outside any scroll box, wider than the page, and a figure
    so wide that the browser shrinks its text below the limit."""
    fig, ax = plt.subplots(figsize=(30, 2))
    ax.set_title("a figure drawn far too wide for the page")
    width, height = save_png(fig, tmp_path / "wide.png")
    plt.close(fig)
    data = base64.b64encode((tmp_path / "wide.png").read_bytes()).decode("ascii")
    cells = "".join(f"<td>over_wide_column_{i:02d}</td>" for i in range(40))
    broken = wide_report.read_text(encoding="utf-8").replace(
        "</body>",
        f"<table><tr>{cells}</tr></table>"
        f'<figure><img width="{width}" height="{height}" data-min-text-px="14.0" '
        f'src="data:image/png;base64,{data}"></figure></body>')
    page = tmp_path / "report.html"
    page.write_text(broken, encoding="utf-8")
    problems = measure_layout(page, tmp_path)["problems"]
    assert any(re.match(r"table \d+ overflows the column", p) for p in problems), problems
    assert any(re.match(r"figure \d+: smallest text [0-9.]+ px", p) for p in problems), problems
    assert any(p.startswith("the page scrolls sideways") for p in problems), problems
