"""The Python package over libcabin (issue 28 item 8). Run: python3 -m pytest python/tests
(the Swift test PythonPackageTests runs it in `scripts/test`)."""
from __future__ import annotations

import json
import os
import pathlib
import tempfile
import time

import numpy
import pytest

import cabin
import cabin.control

ROOT = pathlib.Path(__file__).resolve().parents[2]
BOING = """{"Version": 1.0, "Pattern": [
  {"Event": {"Time": 0.0, "EventType": "HapticTransient",
             "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.0},
                                 {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}},
  {"Event": {"Time": 0.1, "EventType": "HapticContinuous", "EventDuration": 0.4,
             "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.6},
                                 {"ParameterID": "HapticSharpness", "ParameterValue": 0.2}]}}]}"""


def test_version_is_the_cli_s() -> None:
    assert cabin.version().count(".") == 2


def test_a_preset_plays_silently_for_two_seconds_and_says_what_happened() -> None:
    session = cabin.Session.preset("quest", {"seconds": 30})
    assert session.title == "Quest: 30 s" and session.duration >= 30  # its end cue rings on
    with session.play(device="none") as player:
        events = player.events(2.0)
        assert player.position > 1.5
        status = player.status()
        assert status["state"] == "playing" and status["device"] == "none"
        player.set_volume(-6)
        with pytest.raises(cabin.NotFoundError, match='no parameter "sped"'):
            player.set_parameter("sped", 1)
        with pytest.raises(cabin.StateError):
            player.start()
        player.stop()
        events += player.events(3.0)
        assert player.finished
    names = [event["event"] for event in events]
    assert names[0] == "start" and events[0]["device"] == "none"
    assert "mark" in names and "volume" in names
    assert events[-1]["event"] == "end" and events[-1]["reason"] == "stopped"


def test_a_session_renders_into_a_numpy_array_as_into_a_file() -> None:
    session = cabin.Session.preset("quest", {"seconds": 10})
    audio = session.render(seconds=2)
    assert audio.shape == (96000, 2) and audio.dtype == numpy.float32
    rms = 10 * numpy.log10(numpy.mean(audio.astype(numpy.float64) ** 2))
    assert -50 < rms < -6
    # Block by block gives the same samples; the whole session is its duration.
    with session.renderer() as renderer:
        assert renderer.total_frames == round(session.duration * 48000)
        pieces = numpy.concatenate([renderer.render(4800) for _ in range(20)])
    assert numpy.array_equal(pieces, audio)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "quest.wav")
        session.render_file(path, end=2)
        assert os.path.getsize(path) == 44 + 96000 * 2 * 2  # 16-bit stereo WAV, as `cabin render` writes


def test_an_ahap_compiles_to_its_event_stream_and_renders() -> None:
    pattern = cabin.Pattern(BOING, "boing.ahap")
    events = pattern.events
    assert len(events["transients"]) == 1 and events["transients"][0]["intensity"] == 1
    assert events["breakpoints"] and max(point["intensity"] for point in events["breakpoints"]) == pytest.approx(0.6)
    audio = pattern.render(8000)
    assert audio.dtype == numpy.float32 and len(audio) == pattern.audio_frames(8000)
    assert 0.5 < numpy.max(numpy.abs(audio)) <= 10 ** (-1 / 20) + 1e-6
    light = cabin.Pattern(BOING, strength="light").events
    assert light["transients"][0]["intensity"] == pytest.approx(0.4)
    library = cabin.Pattern.from_file(str(ROOT / "Patterns" / "haptics" / "arrival.ahap"))
    assert library.events["duration"] > 0
    with pytest.raises(cabin.DocumentError, match=r"bad\.ahap:1:"):
        cabin.Pattern("{\"Pattern\": 3}", "bad.ahap")


def test_a_session_in_code_is_checked() -> None:
    document = {"cabin": 1, "duration": 10, "buses": {"ambient": 0},
                "layers": {"pad": {"bus": "ambeint", "sound": "synth:brown-noise"}}}
    with pytest.raises(cabin.DocumentError, match=r'did you mean "ambient"'):
        cabin.Session.from_json(document)
    document["layers"]["pad"]["bus"] = "ambient"  # type: ignore[index]
    assert "ambient" in cabin.Session.from_json(document).info["buses"]
    with pytest.raises(cabin.NotFoundError):
        cabin.Session.preset("nope")
    with pytest.raises(cabin.ArgumentError, match="^seconds must be"):
        cabin.Session.preset("quest", {"seconds": 5})


def test_a_spawned_session_is_driven_through_its_control_socket() -> None:
    with tempfile.TemporaryDirectory() as folder:
        socket = os.path.join(folder, "control.sock")
        with cabin.control.spawn(["--preset", "drive", "--minutes", "25"], socket=socket) as played:
            control = played.control
            control.observe()
            control.command("speed", 40)
            control.command("volume", "radio", "-6dB")
            control.command("pause")
            status = control.status()
            assert status["parameters"]["speed"] == 40 and status["volume"]["buses"]["radio"] == -6
            control.command("seek", 60, "absolute")
            control.command("resume")
            with pytest.raises(cabin.control.ControlError, match="no live event 'nap'"):
                control.command("trigger", "nap")
            control.command("trigger", "leave-focus")
            time.sleep(0.3)
            assert control.status()["position"] >= 60
            control.command("stop")
            events = list(control.events(timeout=5))
        names = [event["event"] for event in events]
        for expected in ("pause", "seek", "resume", "trigger", "end"):
            assert expected in names, names
        assert played.process.returncode == 0
