"""tajsim.running."""
