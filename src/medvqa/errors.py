"""The error hierarchy, and the exit code the command line gives each branch.

::

    MedvqaError
    ├── Interrupted             exit 130: Ctrl-C (SIGINT); the message says what was kept
    ├── UsageError              exit 1: the command was asked for something it cannot do as asked
    ├── BadInputError           exit 2: an input file, folder, option value or endpoint is wrong;
    │   │                               the message names it (file, line, field)
    │   └── MissingDependencyError     an optional extra is not installed (says what to install)
    └── ModelError              one request failed; the runner records it as that item's error
        ├── TransientModelError        worth retrying (429, 5xx, timeout)
        ├── ModelRequestError          not worth retrying (a refused request)
        └── EndpointUnreachableError   the endpoint cannot be reached; the run stops (exit 2)
            └── EndpointAuthError      the endpoint refused the key (401/403); the run stops

Narrower errors elsewhere (``InputError`` for a bad line of a file, ``PromptError``,
``ImageLoadError``, ``BoxError``) derive from :class:`BadInputError`, so the command line needs
only these branches. Library code raises; only the command line prints and exits.
"""

from __future__ import annotations


class MedvqaError(Exception):
    """Base of every error medvqa raises on purpose."""


class Interrupted(MedvqaError):
    """Ctrl-C (SIGINT) stopped the command; the message says what was kept (exit code 130)."""


class UsageError(MedvqaError):
    """The command was asked for something it cannot do as asked (exit code 1)."""


class BadInputError(MedvqaError):
    """An input file, folder, option value or endpoint is wrong; the message names it (exit 2)."""


class MissingDependencyError(BadInputError, ImportError):
    """An optional dependency is not installed; the message names the extra to install."""


class ModelError(MedvqaError):
    """Base of the errors a backend raises for one request (recorded as that item's error)."""


class TransientModelError(ModelError):
    """Worth retrying: rate limit (429), server error (5xx), timeout, dropped connection.

    Attributes:
        retry_after_s: seconds the endpoint asked to wait (``Retry-After``), or None.
    """

    def __init__(self, message: str = "", retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class ModelRequestError(ModelError):
    """Not worth retrying: the request itself was refused (4xx other than 429)."""


class EndpointUnreachableError(ModelError):
    """The endpoint could not be reached at all; the message names the URL."""


class EndpointAuthError(EndpointUnreachableError):
    """The endpoint refused the credentials (HTTP 401/403).

    No request can succeed, so the whole run stops at once instead of recording the refusal for
    every item.
    """


#: Exit code of each branch (the command line's mapping; 0 ok, 130 interrupted).
EXIT_CODES: dict[type[MedvqaError], int] = {UsageError: 1, BadInputError: 2, ModelError: 2,
                                             Interrupted: 130}

__all__ = [
    "EXIT_CODES",
    "BadInputError",
    "EndpointAuthError",
    "EndpointUnreachableError",
    "Interrupted",
    "MedvqaError",
    "MissingDependencyError",
    "ModelError",
    "ModelRequestError",
    "TransientModelError",
    "UsageError",
]
