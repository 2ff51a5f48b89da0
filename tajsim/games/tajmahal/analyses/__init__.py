"""tajsim/games/tajmahal/analyses."""
