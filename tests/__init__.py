"""The tests of the project: the package whr mirrored, plus end-to-end flow and browser tests."""
