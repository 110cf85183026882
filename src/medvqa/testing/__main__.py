"""``python -m medvqa.testing --latency S [--port P]``: a chat server on 127.0.0.1.

It prints ``port N`` once listening.

``--delay S`` waits S seconds before listening, like an inference server loading weights.
"""

import argparse

from medvqa.testing._chat_server import serve_forever

parser = argparse.ArgumentParser(prog="python -m medvqa.testing")
parser.add_argument("--latency", type=float, default=0.0, help="seconds before each answer")
parser.add_argument("--port", type=int, default=0, help="port to listen on (0: any free one)")
parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before listening")
args = parser.parse_args()
serve_forever(args.latency, port=args.port, delay_s=args.delay)
