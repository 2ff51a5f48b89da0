"""Development tools that are not part of the ``tajsim`` package (import-linter's contracts)."""
