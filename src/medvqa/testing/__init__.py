"""Real local parts for tests and benchmarks: a loopback chat server and a tiny random VLM."""

from medvqa.testing._chat_server import ChatServer, ChatServerProcess, first_letter_reply
from medvqa.testing._random_vlm import random_vlm
from medvqa.testing._tiny_vlm import write_tiny_vlm

__all__ = ["ChatServer", "ChatServerProcess", "first_letter_reply", "random_vlm", "write_tiny_vlm"]
