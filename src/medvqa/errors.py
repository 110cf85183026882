"""Errors that the CLI maps to exit codes: 1 for a usage error, 2 for bad input."""

from __future__ import annotations


class MedvqaUsageError(Exception):
    """The command was asked for something it cannot do as asked (exit code 1)."""


class BadInputError(Exception):
    """An input file, folder or endpoint is wrong; the message names it (exit code 2)."""
