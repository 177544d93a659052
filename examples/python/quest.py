# Cabin from Python: render 2 s of the quest preset into a NumPy array, play it on the silent
# clock for a second and print its events, compile a haptic pattern. Run: python3 quest.py
# (with python/ on PYTHONPATH, or the package installed).
import numpy

import cabin

print("cabin", cabin.version())
session = cabin.Session.preset("quest", {"seconds": 30})
audio = session.render(seconds=2)  # float32, shape (96000, 2)
print(f"rendered {len(audio)} frames, RMS {10 * numpy.log10(numpy.mean(audio ** 2)):.1f} dBFS")

with session.play(device="none") as player:  # "none": no sound device needed
    for event in player.events(1.0):
        print(event)

pattern = cabin.Pattern('{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient",'
                        ' "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8}]}}]}')
print(pattern.events["transients"])
