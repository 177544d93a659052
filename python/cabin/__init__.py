"""Cabin from Python: sessions, live playback, offline rendering and haptic patterns over
libcabin (include/cabin.h) through ctypes, and the control socket of a spawned `cabin play`
(`cabin.control`). No compiled extension; NumPy only for the functions that return audio.

    import cabin
    session = cabin.Session.preset("quest", {"seconds": 30})
    audio = session.render(seconds=2)            # numpy float32, shape (frames, 2)
    with session.play(device="none") as player:  # the silent clock: no sound device needed
        ...
"""
from __future__ import annotations

import ctypes
import json
import time
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, TypeVar, Union

from ._library import lib, library_path

if TYPE_CHECKING:
    import numpy

__all__ = [
    "version", "library_path", "Session", "Player", "Renderer", "Pattern", "CabinError", "ArgumentError",
    "DocumentError", "NotFoundError", "DeviceError", "FileError", "StateError",
]


class CabinError(Exception):
    """A call the library refused: `status` is the cabin_status, the message its reason."""

    status: int = -1

    def __init__(self, message: str, status: int = -1) -> None:
        super().__init__(message)
        self.status = status


class ArgumentError(CabinError, ValueError):
    """CABIN_ERROR_ARGUMENT: a bad value or option."""


class DocumentError(CabinError):
    """CABIN_ERROR_DOCUMENT: the session or pattern has errors (every one, located)."""


class NotFoundError(CabinError, KeyError):
    """CABIN_ERROR_NOT_FOUND: no such preset, parameter, bus or live event."""

    def __str__(self) -> str:
        return str(self.args[0])


class DeviceError(CabinError):
    """CABIN_ERROR_DEVICE: the sound device cannot be opened."""


class FileError(CabinError, OSError):
    """CABIN_ERROR_IO: a file cannot be read or written."""


class StateError(CabinError):
    """CABIN_ERROR_STATE: not now (a player started twice, or not started)."""


_ERRORS = {1: ArgumentError, 2: DocumentError, 3: NotFoundError, 4: DeviceError, 5: FileError, 6: StateError}

Options = Optional[Mapping[str, Any]]


def _check(status: int) -> None:
    if status != 0:
        message = lib().cabin_last_error()
        raise _ERRORS.get(status, CabinError)(message.decode() if message else "", status)


def _text(value: Optional[str]) -> Optional[bytes]:
    return None if value is None else value.encode()


def _json(value: Options) -> Optional[bytes]:
    return None if value is None else json.dumps(dict(value)).encode()


def _take(call: Any, *arguments: Any) -> str:
    """Calls a function with a char ** out-parameter; the string, freed."""
    out = ctypes.c_void_p()
    _check(call(*arguments, ctypes.byref(out)))
    try:
        return ctypes.string_at(out.value).decode() if out.value else ""
    finally:
        lib().cabin_free(out)


def version() -> str:
    """Cabin's version: what `cabin --version` prints."""
    return lib().cabin_version().decode()


def _load_options(sounds: Optional[str], patterns: Optional[str], haptic_strength: Optional[str],
                  seed: Optional[int]) -> Optional[Dict[str, Any]]:
    options = {key: value for key, value in (("sounds", sounds), ("patterns", patterns),
                                             ("haptic_strength", haptic_strength), ("seed", seed)) if value is not None}
    return options or None


_H = TypeVar("_H", bound="_Handle")


class _Handle:
    """An object behind a library handle: released by `close()` (its `cabin_*_free`), at the
    end of a `with` block, or when collected."""

    _free = ""
    _handle = ctypes.c_void_p()

    def close(self) -> None:
        if self._handle:
            getattr(lib(), self._free)(self._handle)
            self._handle = ctypes.c_void_p()

    def __enter__(self: _H) -> _H:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


class Session(_Handle):
    """A session document, read and checked; played or rendered at any rate. Immutable."""

    _free = "cabin_session_free"

    def __init__(self, handle: ctypes.c_void_p) -> None:
        self._handle = handle

    @classmethod
    def from_file(cls, path: str, *, sounds: Optional[str] = None, patterns: Optional[str] = None,
                  haptic_strength: Optional[str] = None, seed: Optional[int] = None) -> "Session":
        """The session document at `path` (docs/SESSION-FORMAT.md)."""
        handle = ctypes.c_void_p()
        options = _json(_load_options(sounds, patterns, haptic_strength, seed))
        _check(lib().cabin_session_load_file(path.encode(), options, ctypes.byref(handle)))
        return cls(handle)

    @classmethod
    def from_json(cls, text: Union[str, Mapping[str, Any]], folder: Optional[str] = None, *, sounds: Optional[str] = None,
                  patterns: Optional[str] = None, haptic_strength: Optional[str] = None,
                  seed: Optional[int] = None) -> "Session":
        """A session document as JSON text or a dict; relative sound paths from `folder`."""
        if not isinstance(text, str):
            text = json.dumps(dict(text))
        handle = ctypes.c_void_p()
        options = _json(_load_options(sounds, patterns, haptic_strength, seed))
        _check(lib().cabin_session_load_json(text.encode(), _text(folder), options, ctypes.byref(handle)))
        return cls(handle)

    @classmethod
    def preset(cls, name: str, options: Options = None, *, sounds: Optional[str] = None, patterns: Optional[str] = None,
               haptic_strength: Optional[str] = None, seed: Optional[int] = None) -> "Session":
        """A preset (drive, pomodoro, ambient, breathing, quest, ui) with its options
        (`{"minutes": 50}`: `cabin play --preset NAME`'s options without dashes)."""
        handle = ctypes.c_void_p()
        load = _json(_load_options(sounds, patterns, haptic_strength, seed))
        _check(lib().cabin_session_load_preset(name.encode(), _json(options), load, ctypes.byref(handle)))
        return cls(handle)

    @property
    def info(self) -> Dict[str, Any]:
        """title, duration (s), buses, parameters, live events, warnings."""
        info: Dict[str, Any] = json.loads(_take(lib().cabin_session_info, self._handle))
        return info

    @property
    def title(self) -> str:
        return str(self.info["title"])

    @property
    def duration(self) -> float:
        return float(self.info["duration"])

    @property
    def json(self) -> str:
        """The document itself (a preset's, as `cabin session --preset` prints it)."""
        return _take(lib().cabin_session_json, self._handle)

    def play(self, device: Optional[str] = None) -> "Player":
        """Opens `device` ("none": the silent clock; None: "default") and starts playing."""
        player = Player._open(self, device)
        player.start()
        return player

    def open_player(self, device: Optional[str] = None) -> "Player":
        """Opens `device` and loads the session at its rate; nothing plays before `start()`."""
        return Player._open(self, device)

    def renderer(self, sample_rate: int = 48000) -> "Renderer":
        return Renderer(self, sample_rate)

    def render(self, seconds: Optional[float] = None, sample_rate: int = 48000) -> "numpy.ndarray":
        """The session (its first `seconds`, or all of it) as float32 stereo, shape (frames, 2)."""
        with self.renderer(sample_rate) as renderer:
            frames = renderer.total_frames if seconds is None else min(renderer.total_frames, round(seconds * sample_rate))
            return renderer.render(frames)

    def render_file(self, path: str, sample_rate: int = 48000, start: float = 0.0, end: Optional[float] = None) -> None:
        """Writes the session to a sound file (format by extension): `cabin render`'s bits."""
        _check(lib().cabin_render_file(self._handle, path.encode(), sample_rate, start, -1.0 if end is None else end))



class Renderer(_Handle):
    """A session loaded at a rate and rendered block by block into NumPy arrays."""

    _free = "cabin_renderer_free"

    def __init__(self, session: Session, sample_rate: int = 48000) -> None:
        self._handle = ctypes.c_void_p()
        self.sample_rate = sample_rate
        _check(lib().cabin_renderer_open(session._handle, sample_rate, ctypes.byref(self._handle)))

    def _frames(self) -> "tuple[int, int]":
        total, position = ctypes.c_int64(), ctypes.c_int64()
        _check(lib().cabin_renderer_frames(self._handle, ctypes.byref(total), ctypes.byref(position)))
        return total.value, position.value

    @property
    def total_frames(self) -> int:
        return self._frames()[0]

    @property
    def position(self) -> int:
        return self._frames()[1]

    def render(self, frames: int) -> "numpy.ndarray":
        """The next `frames` frames, float32, shape (n, 2): fewer at the session's end."""
        import numpy

        buffer = numpy.zeros((frames, 2), dtype=numpy.float32)
        rendered = ctypes.c_size_t()
        _check(lib().cabin_renderer_render(self._handle, buffer.ctypes.data, frames, ctypes.byref(rendered)))
        return buffer[: rendered.value]



class Player(_Handle):
    """A session playing live. Every method may be called from any thread; `close()` stops at
    once and releases it."""

    _free = "cabin_player_free"

    def __init__(self, handle: ctypes.c_void_p) -> None:
        self._handle = handle

    @classmethod
    def _open(cls, session: Session, device: Optional[str]) -> "Player":
        handle = ctypes.c_void_p()
        _check(lib().cabin_player_open(session._handle, _text(device), ctypes.byref(handle)))
        return cls(handle)

    def start(self) -> None:
        _check(lib().cabin_player_start(self._handle))

    def pause(self) -> None:
        _check(lib().cabin_player_pause(self._handle))

    def resume(self) -> None:
        _check(lib().cabin_player_resume(self._handle))

    def seek(self, seconds: float) -> None:
        _check(lib().cabin_player_seek(self._handle, seconds))

    def stop(self) -> None:
        """Fades out and ends the session."""
        _check(lib().cabin_player_stop(self._handle))

    def set_parameter(self, name: str, value: float) -> None:
        _check(lib().cabin_player_set_parameter(self._handle, name.encode(), value))

    def parameter(self, name: str) -> float:
        value = ctypes.c_double()
        _check(lib().cabin_player_get_parameter(self._handle, name.encode(), ctypes.byref(value)))
        return value.value

    def set_volume(self, decibels: float, bus: Optional[str] = None) -> None:
        _check(lib().cabin_player_set_volume(self._handle, _text(bus), decibels))

    def set_muted(self, muted: bool) -> None:
        _check(lib().cabin_player_set_muted(self._handle, 1 if muted else 0))

    def trigger(self, event: str) -> None:
        _check(lib().cabin_player_trigger(self._handle, event.encode()))

    def poll(self) -> List[Dict[str, Any]]:
        """The events since the last poll: `cabin play --json`'s objects."""
        return [json.loads(line) for line in _take(lib().cabin_player_poll, self._handle).splitlines()]

    def status(self) -> Dict[str, Any]:
        """`cabin ctl status --json`'s object."""
        status: Dict[str, Any] = json.loads(_take(lib().cabin_player_status, self._handle))
        return status

    @property
    def position(self) -> float:
        seconds = ctypes.c_double()
        _check(lib().cabin_player_position(self._handle, ctypes.byref(seconds)))
        return seconds.value

    @property
    def finished(self) -> bool:
        finished = ctypes.c_int()
        _check(lib().cabin_player_is_finished(self._handle, ctypes.byref(finished)))
        return finished.value != 0

    def events(self, seconds: float, interval: float = 0.05) -> List[Dict[str, Any]]:
        """Polls for `seconds` (or until the session ends); every event in that time."""
        events: List[Dict[str, Any]] = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            events += self.poll()
            if self.finished:
                break
            time.sleep(interval)
        return events + self.poll()



class Pattern(_Handle):
    """A haptic pattern (AHAP or .haptic, told apart by content), read and compiled."""

    _free = "cabin_pattern_free"

    def __init__(self, text: str, name: Optional[str] = None, *, strength: Optional[str] = None,
                 strict: bool = False) -> None:
        self._handle = ctypes.c_void_p()
        options = _json({key: value for key, value in (("strength", strength), ("strict", strict or None)) if value is not None} or None)
        _check(lib().cabin_pattern_load(text.encode(), _text(name), options, ctypes.byref(self._handle)))

    @classmethod
    def from_file(cls, path: str, *, strength: Optional[str] = None, strict: bool = False) -> "Pattern":
        with open(path, encoding="utf-8") as file:
            return cls(file.read(), path, strength=strength, strict=strict)

    @property
    def events(self) -> Dict[str, Any]:
        """The compiled stream, `cabin haptics compile`'s JSON: breakpoints and transients."""
        events: Dict[str, Any] = json.loads(_take(lib().cabin_pattern_json, self._handle))
        return events

    @property
    def warnings(self) -> List[str]:
        return _take(lib().cabin_pattern_warnings, self._handle).splitlines()

    def audio_frames(self, sample_rate: int = 48000) -> int:
        frames = ctypes.c_size_t()
        _check(lib().cabin_pattern_audio_frames(self._handle, sample_rate, ctypes.byref(frames)))
        return frames.value

    def render(self, sample_rate: int = 48000) -> "numpy.ndarray":
        """The pattern as mono float32 audio (`cabin haptics render`'s preview)."""
        import numpy

        buffer = numpy.zeros(self.audio_frames(sample_rate), dtype=numpy.float32)
        written = ctypes.c_size_t()
        _check(lib().cabin_pattern_render(self._handle, sample_rate, buffer.ctypes.data, len(buffer), ctypes.byref(written)))
        return buffer[: written.value]

