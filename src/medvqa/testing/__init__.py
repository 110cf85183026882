"""Real local parts for tests and benchmarks: chat server, tiny VLM, throwaway PostgreSQL."""

from medvqa.testing._chat_server import ChatServer, ChatServerProcess, first_letter_reply
from medvqa.testing._postgres import PostgresServer, postgres_bin
from medvqa.testing._random_vlm import random_vlm
from medvqa.testing._tiny_vlm import write_tiny_vlm

__all__ = [
    "ChatServer",
    "ChatServerProcess",
    "PostgresServer",
    "first_letter_reply",
    "postgres_bin",
    "random_vlm",
    "write_tiny_vlm",
]
