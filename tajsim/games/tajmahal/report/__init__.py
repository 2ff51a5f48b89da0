"""tajsim/games/tajmahal/report."""
