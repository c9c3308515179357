"""Tests of secrecy: player views, knowledge, observations and determinization."""
