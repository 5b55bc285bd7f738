"""Background music: the generated loop, and the music volume and mute settings driving it."""

import struct
import wave
from pathlib import Path

import pygame
import pytest

ROOT = Path(__file__).resolve().parents[1]
MUSIC = ROOT / "assets" / "sounds" / "music.wav"


@pytest.fixture
def app():
    from koikoi.storage import Storage
    from koikoi.ui.app import App
    a = App((960, 540), storage=Storage())
    yield a
    pygame.mixer.music.stop()
    pygame.display.quit()


def test_the_music_loop_is_a_clean_quiet_wav():
    with wave.open(str(MUSIC), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 44100)
        n = w.getnframes()
        samples = struct.unpack("<%dh" % n, w.readframes(n))
    assert 20 <= n / 44100 <= 40
    peak = max(abs(v) for v in samples) / 32768
    assert 0.3 < peak < 0.9                      # audible, well below clipping
    assert abs(sum(samples) / n) < 50            # no DC offset
    # It loops: the last sample runs into the first without a jump.
    assert abs(samples[-1] - samples[0]) < 0.05 * 32768


def test_music_volume_and_mute_start_and_stop_the_loop(app):
    if not pygame.mixer.get_init():
        pytest.skip("no audio mixer in this environment")
    app.settings.update(music_volume=0.5, muted=False)
    app.apply_audio()
    assert app.assets.music_playing
    assert pygame.mixer.music.get_volume() == pytest.approx(0.5, abs=0.01)
    app.settings["muted"] = True
    app.apply_audio()
    assert not app.assets.music_playing
    app.settings.update(muted=False, music_volume=0.0)
    app.apply_audio()
    assert not app.assets.music_playing
    app.settings["music_volume"] = 0.3
    app.apply_audio()
    assert app.assets.music_playing
