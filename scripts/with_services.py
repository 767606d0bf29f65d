#!/usr/bin/env python3
"""Run a command against throwaway PostgreSQL and/or Redis servers on loopback.

    python scripts/with_services.py [--postgres] [--redis] -- CMD ARGS...

Each requested server is started on 127.0.0.1 on a free port, with its data in a
fresh temporary directory. CMD runs with these variables in its environment:

  --postgres  DATABASE_URL=postgres://explainer:PASS@127.0.0.1:PORT/explainer
              (the role may CREATEDB, so pytest-django can make test_explainer)
              EXPLAINER_TEST_POSTGRES=1   (tests marked postgres must not skip)
              EXPLAINER_TEST_PG_CTL       JSON list: command prefix for pg_ctl on
                                          this cluster (append stop/start/restart)
              EXPLAINER_TEST_PG_RESTART_CMD  JSON list: restarts the cluster and
                                          waits until it accepts connections
  --redis     REDIS_URL=redis://127.0.0.1:PORT/0
              EXPLAINER_TEST_REDIS=1      (tests marked redis must not skip)

When DATABASE_URL or REDIS_URL is already set, that server is used as it is and
no other is started (nor are the EXPLAINER_TEST_* variables set for it). The
servers are stopped and their directories deleted whatever happens, also on
Ctrl-C or SIGTERM; the exit code is CMD's. Needs Debian's postgresql and
redis-server packages (`make setup` installs them). As root, the PostgreSQL
programs run as the `postgres` system user, since initdb refuses to run as root.
"""
from __future__ import annotations

import contextlib
import glob
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

HOST = "127.0.0.1"
READY_TIMEOUT = 30.0
PG_USER = "explainer"
PG_DB = "explainer"


class ServiceError(RuntimeError):
    """A server could not be started; the message says why."""


def log(message: str) -> None:
    print(f"with_services: {message}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


# ---------------------------------------------------------------- PostgreSQL


def postgres_bindir() -> Path:
    """bin directory of the highest installed PostgreSQL (Debian layout)."""
    candidates = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/pg_ctl")]

    def version(bindir: Path) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", bindir.parent.name)) or (0,)

    if not candidates:
        raise ServiceError("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/pg_ctl); "
                           "run `make setup` or `apt-get install postgresql`")
    return max(candidates, key=version)


def _temp_root(as_user: pwd.struct_passwd | None) -> str | None:
    """Where to make the temp dir: the default, unless another user cannot reach it."""
    if as_user is None:
        return None
    parent = Path(tempfile.gettempdir())
    if all(os.stat(p).st_mode & 0o001 for p in [parent, *parent.parents]):
        return None
    return "/tmp"


class Postgres:
    def __init__(self) -> None:
        self.bindir = postgres_bindir()
        self.as_user: pwd.struct_passwd | None = None
        self.wrap: list[str] = []
        if os.geteuid() == 0:
            try:
                self.as_user = pwd.getpwnam("postgres")
            except KeyError:
                raise ServiceError("running as root, but there is no `postgres` system user "
                                   "to run initdb/pg_ctl as (install Debian's postgresql)") from None
            self.wrap = ["runuser", "-u", "postgres", "--"]
        self.tmp = Path(tempfile.mkdtemp(prefix="explainer-pg-", dir=_temp_root(self.as_user)))
        self.data = self.tmp / "data"
        self.sockets = self.tmp / "sock"
        self.logfile = self.tmp / "server.log"
        self.port = 0
        self.password = secrets.token_urlsafe(18)
        self.started = False

    @property
    def pg_ctl(self) -> list[str]:
        return [*self.wrap, str(self.bindir / "pg_ctl"), "-D", str(self.data)]

    @property
    def restart_cmd(self) -> list[str]:
        return [*self.pg_ctl, "-l", str(self.logfile), "-w", "-t", str(int(READY_TIMEOUT)),
                "-m", "fast", "restart"]

    @property
    def url(self) -> str:
        return f"postgres://{PG_USER}:{quote(self.password, safe='')}@{HOST}:{self.port}/{PG_DB}"

    def _run(self, argv: list[str], what: str) -> None:
        proc = subprocess.run(argv, cwd=self.tmp, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if proc.returncode != 0:
            raise ServiceError(f"{what} failed (exit {proc.returncode}):\n{proc.stdout.strip()}\n"
                               f"server log:\n{_tail(self.logfile)}")

    def start(self) -> None:
        self.sockets.mkdir()
        if self.as_user is not None:
            for path in (self.tmp, self.sockets):
                os.chown(path, self.as_user.pw_uid, self.as_user.pw_gid)
        self._run([*self.wrap, str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres",
                   "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C",
                   "--no-sync"], "initdb")
        # Everything in the config files, so a bare `pg_ctl restart` keeps it.
        (self.data / "pg_hba.conf").write_text(
            "# written by scripts/with_services.py\n"
            "local all all trust\n"
            f"host  all all {HOST}/32 scram-sha-256\n")
        for attempt in range(3):
            self.port = free_port()
            with open(self.data / "postgresql.conf", "a") as conf:
                conf.write(
                    "\n# scripts/with_services.py: throwaway test server\n"
                    f"listen_addresses = '{HOST}'\n"
                    f"port = {self.port}\n"
                    f"unix_socket_directories = '{self.sockets}'\n"
                    "password_encryption = 'scram-sha-256'\n"
                    "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n")
            try:
                self._run([*self.pg_ctl, "-l", str(self.logfile), "-w", "-t",
                           str(int(READY_TIMEOUT)), "start"], "pg_ctl start")
                break
            except ServiceError:
                # Most likely someone took the port between choosing and binding it.
                if attempt == 2 or "already in use" not in _tail(self.logfile):
                    raise
        self.started = True
        self._create_role_and_database()
        self._wait_ready()

    def _create_role_and_database(self) -> None:
        import psycopg
        from psycopg import sql

        with psycopg.connect(host=str(self.sockets), port=self.port, user="postgres",
                             dbname="postgres", autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN CREATEDB PASSWORD {}").format(
                sql.Identifier(PG_USER), sql.Literal(self.password)))
            conn.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(
                sql.Identifier(PG_DB), sql.Identifier(PG_USER)))

    def _wait_ready(self) -> None:
        """Connect the way the app will (TCP, password) until it works."""
        import psycopg

        deadline = time.monotonic() + READY_TIMEOUT
        while True:
            try:
                with psycopg.connect(self.url, connect_timeout=2) as conn:
                    conn.execute("SELECT 1")
                return
            except psycopg.OperationalError as exc:
                if time.monotonic() > deadline:
                    raise ServiceError(f"PostgreSQL on {HOST}:{self.port} did not accept connections "
                                       f"within {READY_TIMEOUT:.0f} s: {exc}\n"
                                       f"server log:\n{_tail(self.logfile)}") from None
                time.sleep(0.2)

    def stop(self) -> None:
        try:
            if self.started or (self.data / "postmaster.pid").exists():
                proc = subprocess.run([*self.pg_ctl, "-m", "fast", "-w", "-t", "30", "stop"],
                                      cwd=self.tmp, stdin=subprocess.DEVNULL,
                                      capture_output=True, text=True)
                if proc.returncode != 0 and (self.data / "postmaster.pid").exists():
                    self._kill_postmaster()
                log(f"stopped PostgreSQL on {HOST}:{self.port}" if self.port
                    else "stopped PostgreSQL (interrupted while setting up)")
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def _kill_postmaster(self) -> None:
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
            os.kill(pid, signal.SIGQUIT)
            for _ in range(50):
                os.kill(pid, 0)
                time.sleep(0.1)
            os.kill(pid, signal.SIGKILL)


# --------------------------------------------------------------------- Redis


class Redis:
    def __init__(self) -> None:
        self.binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not Path(self.binary).exists():
            raise ServiceError("redis-server is not installed; run `make setup` "
                               "or `apt-get install redis-server`")
        self.tmp = Path(tempfile.mkdtemp(prefix="explainer-redis-"))
        self.logfile = self.tmp / "server.log"
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self) -> None:
        for attempt in range(3):
            self.port = free_port()
            with open(self.logfile, "ab") as out:
                # Own session: a Ctrl-C meant for CMD must not kill it before we stop it.
                self.proc = subprocess.Popen(
                    [self.binary, "--port", str(self.port), "--bind", HOST, "--save", "",
                     "--appendonly", "no", "--daemonize", "no", "--dir", str(self.tmp)],
                    cwd=self.tmp, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                    start_new_session=True)
            try:
                self._wait_ready()
                return
            except ServiceError:
                if attempt == 2 or self.proc.poll() is None:
                    raise

    def _wait_ready(self) -> None:
        import redis

        deadline = time.monotonic() + READY_TIMEOUT
        client = redis.Redis(host=HOST, port=self.port, socket_connect_timeout=1, socket_timeout=1)
        try:
            while True:
                assert self.proc is not None
                if self.proc.poll() is not None:
                    raise ServiceError(f"redis-server exited with {self.proc.returncode}:\n"
                                       f"{_tail(self.logfile)}")
                try:
                    if client.ping():
                        return
                except redis.RedisError as exc:
                    if time.monotonic() > deadline:
                        raise ServiceError(f"redis-server on {HOST}:{self.port} did not answer PING "
                                           f"within {READY_TIMEOUT:.0f} s: {exc}\n"
                                           f"{_tail(self.logfile)}") from None
                time.sleep(0.1)
        finally:
            client.close()

    def stop(self) -> None:
        try:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
                log(f"stopped Redis on {HOST}:{self.port}")
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)


# ---------------------------------------------------------------------- main


class Terminated(Exception):
    """SIGTERM (or SIGHUP) arrived; unwind so the servers are stopped."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_terminated(signum: int, _frame: object) -> None:
    raise Terminated(signum)


def parse_args(argv: list[str]) -> tuple[set[str], list[str]]:
    usage = "usage: with_services.py [--postgres] [--redis] -- CMD ARGS..."
    if "--" not in argv:
        sys.exit(f"{usage}\n(missing `--` before the command)")
    split = argv.index("--")
    options, command = argv[:split], argv[split + 1:]
    unknown = [o for o in options if o not in ("--postgres", "--redis")]
    if unknown or not command:
        sys.exit(f"{usage}\n" + (f"unknown option(s): {' '.join(unknown)}" if unknown
                                 else "no command given"))
    return {o.removeprefix("--") for o in options}, command


def run(command: list[str], env: dict[str, str]) -> int:
    child = subprocess.Popen(command, env=env)
    try:
        return child.wait()
    except (KeyboardInterrupt, Terminated) as exc:
        # From a terminal CMD got the SIGINT too; give it a moment to finish cleanly.
        if isinstance(exc, Terminated):
            child.send_signal(exc.signum)
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        raise


def main(argv: list[str]) -> int:
    wanted, command = parse_args(argv)
    signal.signal(signal.SIGTERM, _raise_terminated)
    signal.signal(signal.SIGHUP, _raise_terminated)
    env = dict(os.environ)
    with contextlib.ExitStack() as stack:
        try:
            if "postgres" in wanted:
                if os.environ.get("DATABASE_URL"):
                    log("DATABASE_URL is set; using that database, not starting PostgreSQL")
                else:
                    pg = Postgres()
                    stack.callback(pg.stop)
                    pg.start()
                    log(f"started PostgreSQL {pg.bindir.parent.name} on {HOST}:{pg.port} "
                        f"(data in {pg.tmp})")
                    env.update(DATABASE_URL=pg.url, EXPLAINER_TEST_POSTGRES="1",
                               EXPLAINER_TEST_PG_CTL=json.dumps(pg.pg_ctl),
                               EXPLAINER_TEST_PG_RESTART_CMD=json.dumps(pg.restart_cmd))
            if "redis" in wanted:
                if os.environ.get("REDIS_URL"):
                    log("REDIS_URL is set; using that server, not starting Redis")
                else:
                    rd = Redis()
                    stack.callback(rd.stop)
                    rd.start()
                    log(f"started Redis on {HOST}:{rd.port} (data in {rd.tmp})")
                    env.update(REDIS_URL=rd.url, EXPLAINER_TEST_REDIS="1")
            returncode = run(command, env)
        except ServiceError as exc:
            log(f"error: {exc}")
            returncode = 1
        except FileNotFoundError as exc:
            log(f"error: {exc}")
            returncode = 127
        except KeyboardInterrupt:
            log("interrupted; stopping servers")
            returncode = 130
        except Terminated as exc:
            log(f"got signal {exc.signum}; stopping servers")
            returncode = 128 + exc.signum
        finally:
            # Don't let a second Ctrl-C cut the clean-up short.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
    return 128 - returncode if returncode < 0 else returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
