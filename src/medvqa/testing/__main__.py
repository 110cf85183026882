"""``python -m medvqa.testing --latency S``: a chat server on 127.0.0.1 (prints its port)."""

import argparse

from medvqa.testing._chat_server import serve_forever

parser = argparse.ArgumentParser(prog="python -m medvqa.testing")
parser.add_argument("--latency", type=float, default=0.0, help="seconds before each answer")
serve_forever(parser.parse_args().latency)
