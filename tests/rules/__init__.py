"""Tests of the rules: the engine, preview, events and decisions."""
