"""The control socket of a playing `cabin play` (README: "cabin ctl: control from outside"):
newline-delimited JSON in mpv's style. A request {"command": [NAME, ARGS...], "request_id": N}
gets {"request_id": N, "error": "success", "data": ...}; after ["observe"] the connection also
receives every event, as `cabin play --json` prints them.

    with cabin.control.spawn(["--preset", "pomodoro"], socket="/run/user/1000/myapp.sock") as played:
        played.control.command("volume", "radio", "-6dB")
        print(played.control.status()["position"])
"""
from __future__ import annotations

import json
import os
import pathlib
import shutil
import socket as sockets
import subprocess
import tempfile
import time
from typing import Any, Dict, Iterator, List, Optional, Sequence

from . import CabinError


class ControlError(CabinError):
    """The session refused a command: its one-line reason."""


class Control:
    """A connection to a playing session's control socket. One thread at a time."""

    def __init__(self, path: str, timeout: float = 5.0) -> None:
        self._socket = sockets.socket(sockets.AF_UNIX, sockets.SOCK_STREAM)
        self._socket.settimeout(timeout)
        self._socket.connect(path)
        self._buffer = b""
        self._next_id = 1
        self._events: List[Dict[str, Any]] = []

    def _line(self) -> Dict[str, Any]:
        while b"\n" not in self._buffer:
            chunk = self._socket.recv(65536)
            if not chunk:
                raise ConnectionError("the session closed the control socket")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        value: Dict[str, Any] = json.loads(line)
        return value

    def command(self, name: str, *arguments: Any) -> Any:
        """Sends one command and returns its reply's data; raises ControlError with the
        session's reason. Events that arrive first (after `observe`) are kept for `events()`."""
        request_id = self._next_id
        self._next_id += 1
        request = {"command": [name, *arguments], "request_id": request_id}
        self._socket.sendall(json.dumps(request).encode() + b"\n")
        while True:
            reply = self._line()
            if "event" in reply and "request_id" not in reply:
                self._events.append(reply)
                continue
            if reply.get("request_id") != request_id:
                continue
            if reply.get("error") != "success":
                raise ControlError(str(reply.get("error")))
            return reply.get("data")

    def status(self) -> Dict[str, Any]:
        """`cabin ctl status --json`'s object: state, position, parameters, volumes …"""
        status: Dict[str, Any] = self.command("status")
        return status

    def observe(self) -> None:
        """From now on the connection also receives the session's events."""
        self.command("observe")

    def events(self, timeout: Optional[float] = None) -> Iterator[Dict[str, Any]]:
        """The events received (after `observe`), as they come, until the session ends or
        `timeout` passes without one."""
        while self._events:
            yield self._events.pop(0)
        previous = self._socket.gettimeout()
        self._socket.settimeout(timeout)
        try:
            while True:
                try:
                    line = self._line()
                except (sockets.timeout, ConnectionError):
                    return
                if "event" in line:
                    yield line
                    if line["event"] == "end":
                        return
        finally:
            self._socket.settimeout(previous)

    def close(self) -> None:
        self._socket.close()

    def __enter__(self) -> "Control":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def cabin_binary() -> str:
    """The `cabin` to spawn: $CABIN_BINARY, else the one built beside this package, else PATH's."""
    explicit = os.environ.get("CABIN_BINARY")
    if explicit:
        return explicit
    built = pathlib.Path(__file__).resolve().parents[2] / ".build" / "release" / "cabin"
    if built.exists():
        return str(built)
    return shutil.which("cabin") or "cabin"


class Spawned:
    """A `cabin play` this program started, and its control connection."""

    def __init__(self, process: "subprocess.Popen[bytes]", control: Control, path: str) -> None:
        self.process = process
        self.control = control
        self.path = path

    def close(self, timeout: float = 5.0) -> None:
        """Ends the session (a `quit`), waiting for it; kills it if it does not end."""
        try:
            self.control.command("quit")
        except (CabinError, OSError):
            pass
        self.control.close()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def __enter__(self) -> "Spawned":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def spawn(arguments: Sequence[str], socket: str, device: str = "none", timeout: float = 10.0,
          binary: Optional[str] = None) -> Spawned:
    """Starts `cabin play ARGUMENTS` as this app's own player — the user's remembered state
    and config left alone, no desktop media controls, ended when this process ends — with its
    control socket at `socket`, and connects to it."""
    command = [binary or cabin_binary(), "play", *arguments, "-D", device, "--no-state", "--no-config",
               "--exit-with-parent", "--no-mpris", "--ipc", socket, "--json"]
    errors = tempfile.TemporaryFile()  # a file, not a pipe: nothing it writes can block it
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors)
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            errors.seek(0)
            raise CabinError(f"cabin play exited {process.returncode}: {errors.read().decode().strip()}")
        try:
            return Spawned(process, Control(socket), socket)
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise
            time.sleep(0.05)
