"""Tests of the whole house: layers, house rules, determinism, examples, golden and old files."""
