"""tajsim/games/tajmahal/strategies."""
