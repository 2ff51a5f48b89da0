"""tajsim.strategies."""
