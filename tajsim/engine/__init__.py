"""tajsim.engine."""
