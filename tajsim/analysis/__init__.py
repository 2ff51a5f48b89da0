"""tajsim.analysis."""
