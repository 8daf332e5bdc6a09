"""Bundled open word lists and the tools that rebuild them (see README.md)."""
