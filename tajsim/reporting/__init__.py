"""tajsim.reporting."""
