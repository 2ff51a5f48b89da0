"""The CLI tests' shared checks: a command invoked in-process, and its one-line refusal."""

from __future__ import annotations

from click.testing import CliRunner

from tajsim.cli.main import cli


def invoke(*args: str, **kwargs):
    """``tajsim ARGS`` in this process (``kwargs``: ``CliRunner.invoke``'s, e.g. ``input``)."""
    return CliRunner().invoke(cli, list(args), **kwargs)


def one_line_error(res, *needles: str) -> str:
    """Exit status 2 and one ``error: ...`` line on stderr holding every needle, no traceback;
    returns that line."""
    assert res.exit_code == 2, res.output
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("error: "), res.stderr
    assert "Traceback" not in res.output
    for needle in needles:
        assert needle in res.stderr, res.stderr
    return res.stderr
