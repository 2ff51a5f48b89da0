"""``python -m tajsim`` runs the command-line interface."""

from tajsim.cli.main import cli

if __name__ == "__main__":
    cli()
