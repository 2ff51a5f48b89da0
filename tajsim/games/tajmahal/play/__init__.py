"""tajsim/games/tajmahal/play."""
