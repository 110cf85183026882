"""Real local parts for tests and benches: chat server, tiny VLMs, PostgreSQL, text benchmark."""

from medvqa.testing._chat_server import ChatServer, ChatServerProcess, first_letter_reply
from medvqa.testing._postgres import PostgresServer, postgres_bin
from medvqa.testing._random_qwen2vl import SIDE, NeedsTorchvisionError, random_qwen2vl
from medvqa.testing._random_vlm import random_vlm
from medvqa.testing._text_bench import write_text_bench
from medvqa.testing._tiny_vlm import write_tiny_vlm
from medvqa.testing._zoo import ZooReply, write_zoo_bench, zoo_items, zoo_model

__all__ = [
    "ChatServer",
    "ChatServerProcess",
    "PostgresServer",
    "first_letter_reply",
    "postgres_bin",
    "random_vlm",
    "write_text_bench",
    "write_tiny_vlm",
    "ZooReply",
    "write_zoo_bench",
    "zoo_items",
    "zoo_model",
    "NeedsTorchvisionError",
    "SIDE",
    "random_qwen2vl",
]
