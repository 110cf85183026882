"""Real local servers for tests and benchmarks (loopback only; nothing leaves the machine)."""

from medvqa.testing._chat_server import ChatServer, ChatServerProcess, first_letter_reply

__all__ = ["ChatServer", "ChatServerProcess", "first_letter_reply"]
