"""Real local parts for tests and benches: chat server, tiny random VLM, tiny text benchmark."""

from medvqa.testing._chat_server import ChatServer, ChatServerProcess, first_letter_reply
from medvqa.testing._text_bench import write_text_bench
from medvqa.testing._tiny_vlm import write_tiny_vlm

__all__ = ["ChatServer", "ChatServerProcess", "first_letter_reply", "write_text_bench",
           "write_tiny_vlm"]
