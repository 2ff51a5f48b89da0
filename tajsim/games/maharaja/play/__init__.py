"""Maharaja batch kernels and the records they write."""
