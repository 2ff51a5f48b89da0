"""Command-line interface: parses arguments and calls the library, nothing more."""
