"""The course's command line.

python -m c10klab up                      the API and the runner, supervised (`make up`)
python -m c10klab api | runner            one of them (docker-compose runs each apart)
python -m c10klab instructor add NAME     an instructor account; the password is asked
                                          for, or read from the first line of stdin
python -m c10klab instructor passwd NAME  a new password for an instructor (asked for, or
                                          read from stdin); their sessions end
python -m c10klab instructor list
python -m c10klab spare-cpus              the CPUs the course's own work keeps to (empty
                                          when the host has none beyond the benchmark's)
python -m c10klab host-addresses [PUBLISH]
                                          this machine's addresses students may reach, as
                                          JSON (for C10K_HOST_ADDRESSES); PUBLISH is compose's
                                          published port ("8000", "192.0.2.10:8000")
"""

import argparse
import getpass
import json
import sys

import uvicorn

from c10klab.config import get_settings, spare_cpuset
from c10klab.errors import DomainError
from c10klab.supervisor import keep_off_benchmark, supervise

# Open event streams would keep a stopping API waiting forever: give them this long.
GRACEFUL_SHUTDOWN_S = 3


def run_api() -> None:
    settings = get_settings()
    keep_off_benchmark(settings)
    uvicorn.run(
        "c10klab.main:create_app",
        factory=True,
        host=settings.listen_host,
        port=settings.port,
        log_level="info",
        proxy_headers=False,  # the app takes the client's address itself (client_address.py)
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
    )


def run_runner() -> None:
    from c10klab.runner.worker import main

    keep_off_benchmark(get_settings())
    main()


def read_password() -> str:
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass("Password (at least 8 characters): ")
    if getpass.getpass("Again: ") != first:
        raise SystemExit("the two passwords differ; nothing was changed")
    return first


def instructor(args: argparse.Namespace) -> None:
    from c10klab.people.service import add_instructor, reset_password
    from c10klab.people.store import PeopleStore

    people = PeopleStore(get_settings().store)
    if args.action == "list":
        for person in people.instructors():
            print(person.name)
        return
    if not args.name:
        raise SystemExit(f"usage: python -m c10klab instructor {args.action} NAME")
    try:
        if args.action == "passwd":
            person = reset_password(people, args.name, read_password())
            print(f"instructor {person.name!r} has a new password; their sessions ended")
            return
        person = add_instructor(people, args.name, read_password())
    except DomainError as refused:
        raise SystemExit(f"error: {refused.message}") from refused
    print(f"instructor {person.name!r} added; log in at /#/login")


def print_openapi() -> None:
    """The API's OpenAPI document (c10klab/openapi.py), for `make contract`."""
    from c10klab.main import create_app
    from c10klab.openapi import document

    json.dump(document(create_app()), sys.stdout, indent=2, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")


def main(argv: list[str] | None = None) -> None:
    """The command line; `argv` (the arguments after the program) defaults to sys.argv's."""
    parser = argparse.ArgumentParser(prog="python -m c10klab")
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("up", "api", "runner", "spare-cpus", "openapi"):
        commands.add_parser(name)
    addresses = commands.add_parser("host-addresses")
    addresses.add_argument("publish", nargs="?", default="")
    people = commands.add_parser("instructor", help="instructor accounts")
    people.add_argument("action", choices=["add", "passwd", "list"])
    people.add_argument("name", nargs="?")
    args = parser.parse_args(argv)
    if args.command == "api":
        run_api()
    elif args.command == "runner":
        run_runner()
    elif args.command == "instructor":
        instructor(args)
    elif args.command == "spare-cpus":
        print(spare_cpuset(get_settings()))
    elif args.command == "openapi":
        print_openapi()
    elif args.command == "host-addresses":
        from c10klab.people.join_links import published_addresses

        print(json.dumps(published_addresses(args.publish)))
    else:
        sys.exit(supervise())


if __name__ == "__main__":
    main()
