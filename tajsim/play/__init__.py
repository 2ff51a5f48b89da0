"""tajsim/play."""
