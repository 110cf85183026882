"""``medvqa serve ENGINE MODEL [engine args]``: start a server, wait for it, print the spec."""

from __future__ import annotations

import typer

_forward = {"allow_extra_args": True, "ignore_unknown_options": True}


def serve_command(
    ctx: typer.Context,
    engine: str = typer.Argument(..., help="vllm or sglang."),
    model: str = typer.Argument(..., help="Model path or hub id, as the engine takes it."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    timeout: float = typer.Option(
        900.0, "--timeout", help="Seconds to wait for /v1/models to answer."
    ),
    command: str = typer.Option(
        "", "--command", help="Custom launch command ({python} {model} {host} {port} filled in)."
    ),
) -> None:
    """Start an OpenAI-compatible server and print the --model spec to run it with.

    Arguments after MODEL go to the engine unchanged. The server runs until Ctrl-C.

    Example: medvqa serve vllm Qwen/Qwen2.5-VL-7B-Instruct --port 8000 --max-model-len 8192
    """
    import signal
    import sys

    from rich.console import Console

    from medvqa.models import Server, launch_argv, start_server

    argv = launch_argv(engine, model, host, port, list(ctx.args), sys.executable, command)
    err = Console(stderr=True, highlight=False)
    err.print(f"starting: {' '.join(argv)}")
    client_host = "127.0.0.1" if host in {"0.0.0.0", "::"} else host  # noqa: S104
    started: list[Server] = []
    stopping: list[bool] = []

    def stop(*_: object) -> None:
        stopping.append(True)
        if not started:
            raise SystemExit(0)  # still starting: start_server stops the child on the way out
        # Only signal the child here: the main thread is inside process.wait() already.
        started[0].process.terminate()

    signal.signal(signal.SIGTERM, stop)
    server = start_server(argv, f"http://{client_host}:{port}/v1", timeout_s=timeout)
    started.append(server)
    print(server.spec, flush=True)
    err.print(f"ready; run with: medvqa run BENCH/ -m {server.spec} -o RUN/   (Ctrl-C stops it)")
    try:
        server.process.wait()
    except KeyboardInterrupt:
        server.stop()
        return
    if stopping:
        return
    err.print(f"the server exited with code {server.process.returncode}")
    raise typer.Exit(1 if server.process.returncode else 0)
