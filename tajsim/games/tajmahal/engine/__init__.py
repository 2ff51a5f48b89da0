"""tajsim/games/tajmahal/engine."""
