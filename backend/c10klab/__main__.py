"""`python -m c10klab up` runs the course: the API and the runner as two supervised processes.
`python -m c10klab api` and `python -m c10klab runner` run one of them (docker-compose does)."""

import argparse
import signal
import subprocess
import sys
import time

import uvicorn

from c10klab.config import get_settings


def run_api() -> None:
    settings = get_settings()
    uvicorn.run(
        "c10klab.main:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        log_level="info",
    )


def run_runner() -> None:
    from c10klab.runner.worker import main

    main()


def run_both() -> int:
    """Start both children; when either ends, or on Ctrl-C / SIGTERM, stop the other."""
    settings = get_settings()  # validate once here, so a bad setting fails before anything starts
    children = {
        name: subprocess.Popen([sys.executable, "-m", "c10klab", name])
        for name in ("runner", "api")
    }
    print(f"C10K Lab: http://localhost:{settings.port}  (Ctrl-C stops it)", flush=True)

    def forward(signum: int, _frame: object) -> None:
        for child in children.values():
            if child.poll() is None:
                child.send_signal(signum)

    signal.signal(signal.SIGINT, forward)
    signal.signal(signal.SIGTERM, forward)
    while all(child.poll() is None for child in children.values()):
        time.sleep(0.5)
    for name, child in children.items():
        if child.poll() is None:
            child.terminate()
        code = child.wait(timeout=30)
        if code not in (0, -signal.SIGTERM, -signal.SIGINT):
            print(f"C10K Lab: the {name} process exited with code {code}", file=sys.stderr)
    return max((abs(c.returncode or 0) for c in children.values()), default=0)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m c10klab")
    parser.add_argument("command", choices=["up", "api", "runner"])
    command = parser.parse_args().command
    if command == "api":
        run_api()
    elif command == "runner":
        run_runner()
    else:
        sys.exit(run_both())


if __name__ == "__main__":
    main()
