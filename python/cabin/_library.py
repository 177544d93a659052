"""Finding and declaring libcabin (include/cabin.h) for ctypes."""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import pathlib
from typing import Optional

_c_char_pp = ctypes.POINTER(ctypes.c_char_p)
_handle_p = ctypes.POINTER(ctypes.c_void_p)


def library_path() -> str:
    """Where libcabin is: $CABIN_LIBRARY (a path to the .so), else the build beside this
    package (`.build/release/libCabinC.so` of the checkout it lies in), else the installed
    `libcabin.so.0` the dynamic loader finds (scripts/install-lib, the Debian package)."""
    explicit = os.environ.get("CABIN_LIBRARY")
    if explicit:
        return explicit
    root = pathlib.Path(__file__).resolve().parents[2]
    built = root / ".build" / "release" / "libCabinC.so"
    if built.exists():
        return str(built)
    return ctypes.util.find_library("cabin") or "libcabin.so.0"


# name: (result type, argument types)
_FUNCTIONS = {
    "cabin_version": (ctypes.c_char_p, []),
    "cabin_last_error": (ctypes.c_char_p, []),
    "cabin_status_name": (ctypes.c_char_p, [ctypes.c_int]),
    "cabin_free": (None, [ctypes.c_void_p]),
    "cabin_session_load_file": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, _handle_p]),
    "cabin_session_load_json": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, _handle_p]),
    "cabin_session_load_preset": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, _handle_p]),
    "cabin_session_info": (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    "cabin_session_json": (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    "cabin_session_free": (None, [ctypes.c_void_p]),
    "cabin_player_open": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, _handle_p]),
    "cabin_player_start": (ctypes.c_int, [ctypes.c_void_p]),
    "cabin_player_pause": (ctypes.c_int, [ctypes.c_void_p]),
    "cabin_player_resume": (ctypes.c_int, [ctypes.c_void_p]),
    "cabin_player_seek": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_double]),
    "cabin_player_stop": (ctypes.c_int, [ctypes.c_void_p]),
    "cabin_player_set_parameter": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_double]),
    "cabin_player_get_parameter": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_double)]),
    "cabin_player_set_volume": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_double]),
    "cabin_player_set_muted": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    "cabin_player_trigger": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p]),
    "cabin_player_poll": (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    "cabin_player_status": (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    "cabin_player_position": (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)]),
    "cabin_player_is_finished": (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]),
    "cabin_player_free": (None, [ctypes.c_void_p]),
    "cabin_render_file": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_double, ctypes.c_double]),
    "cabin_renderer_open": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, _handle_p]),
    "cabin_renderer_frames": (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64)]),
    "cabin_renderer_render": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]),
    "cabin_renderer_free": (None, [ctypes.c_void_p]),
    "cabin_pattern_load": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, _handle_p]),
    "cabin_pattern_load_file": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, _handle_p]),
    "cabin_pattern_json": (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    "cabin_pattern_warnings": (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    "cabin_pattern_audio_frames": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_size_t)]),
    "cabin_pattern_render": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]),
    "cabin_pattern_free": (None, [ctypes.c_void_p]),
}

_lib: Optional[ctypes.CDLL] = None


def lib() -> ctypes.CDLL:
    """The library, loaded and declared once."""
    global _lib
    if _lib is None:
        loaded = ctypes.CDLL(library_path())
        for name, (restype, argtypes) in _FUNCTIONS.items():
            function = getattr(loaded, name)
            function.restype = restype
            function.argtypes = argtypes
        _lib = loaded
    return _lib
