"""Fuzz tests of every public entry point (docs/testing.md)."""
