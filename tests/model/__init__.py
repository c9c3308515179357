"""Tests of the model: actions, outcomes, the seeded shuffle, typed errors on misuse."""
