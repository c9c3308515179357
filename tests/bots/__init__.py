"""Tests of the bots: bot specifications, the bots, tournaments and ratings."""
