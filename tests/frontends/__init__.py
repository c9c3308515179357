"""Tests of the front ends: the command line, the terminal game, the web server and client."""
