"""Tests of the environments for learning: Gymnasium, PettingZoo, OpenSpiel, the vector env."""
