"""Tests of play: matches, narration and the phrase tables."""
