"""The runner tests' HTTP server: medvqa's real loopback chat server, under its old test name."""

from medvqa.testing import ChatServer as CountingServer

__all__ = ["CountingServer"]
