"""The CLI tests' shared checks: a command invoked in-process, and its one-line refusal."""

from __future__ import annotations

from click.testing import CliRunner

from tajsim.cli.main import cli


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def one_line_error(res, *needles: str) -> None:
    """Exit status 2 and one ``error: ...`` line on stderr holding every needle."""
    assert res.exit_code == 2, res.output
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("error: "), res.stderr
    for needle in needles:
        assert needle in res.stderr, res.stderr
