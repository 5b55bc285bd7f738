"""The synthesised sound effects in assets/sounds (made by tools/make_sounds.py)."""

from __future__ import annotations

import importlib.util
import io
import os
import struct
import wave
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SOUND_DIR = ROOT / "assets" / "sounds"

# name -> (shortest, longest) duration in seconds
EXPECTED = {
    "snap": (0.08, 0.16),
    "capture": (0.08, 0.25),
    "flip": (0.15, 0.45),
    "shuffle": (0.4, 1.2),
    "deal": (0.3, 1.2),
    "koikoi": (0.3, 1.2),
    "stop": (0.5, 2.0),
    "yaku": (0.6, 1.6),
    "click": (0.01, 0.08),
    "win": (1.0, 2.2),
    "lose": (1.0, 2.2),
}
MINUS_1_DBFS = 32767 * 10 ** (-1 / 20)


def _load_tool():
    spec = importlib.util.spec_from_file_location("make_sounds", ROOT / "tools" / "make_sounds.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _samples(path: Path):
    with wave.open(str(path), "rb") as w:
        params = w.getparams()
        raw = w.readframes(w.getnframes())
    return params, struct.unpack("<%dh" % (len(raw) // 2), raw)


@pytest.fixture(scope="module")
def mixer():
    try:
        pygame.mixer.init(frequency=44100, size=-16, channels=2)
    except pygame.error as e:
        pytest.skip(f"pygame.mixer.init() failed under SDL_AUDIODRIVER="
                    f"{os.environ.get('SDL_AUDIODRIVER')} ({e}); the WAV files are "
                    f"still checked with the wave module in test_wav_format/test_levels")
    yield pygame.mixer
    pygame.mixer.quit()


def test_generator_covers_the_expected_sounds():
    assert set(_load_tool().SOUNDS) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_wav_format(name):
    path = SOUND_DIR / f"{name}.wav"
    assert path.is_file(), f"missing {path}: run python tools/make_sounds.py"
    params, samples = _samples(path)
    assert params.nchannels in (1, 2)
    assert params.sampwidth == 2
    assert params.framerate == 44100
    seconds = params.nframes / params.framerate
    lo, hi = EXPECTED[name]
    assert lo <= seconds <= hi, f"{name}: {seconds:.3f} s not in [{lo}, {hi}]"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_levels(name):
    _, s = _samples(SOUND_DIR / f"{name}.wav")
    peak = max(abs(v) for v in s)
    assert peak <= MINUS_1_DBFS, f"{name}: peak {peak} above -1 dBFS"
    assert peak >= 32767 * 10 ** (-20 / 20), f"{name}: peak {peak} is too quiet (< -20 dBFS)"
    dc = sum(s) / len(s)
    assert abs(dc) < 30, f"{name}: DC offset {dc:.1f}"
    # faded in and out: no click at either end
    assert abs(s[0]) < 64 and abs(s[-1]) < 64
    tail = s[-int(0.002 * 44100):]
    assert max(abs(v) for v in tail) < 0.02 * 32767


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_decodes_with_pygame(mixer, name):
    snd = mixer.Sound(str(SOUND_DIR / f"{name}.wav"))
    lo, hi = EXPECTED[name]
    assert lo * 0.95 <= snd.get_length() <= hi * 1.05
    raw = snd.get_raw()
    assert len(raw) > 0 and any(raw)


def test_generator_is_deterministic():
    tool = _load_tool()
    first = tool.synth("click")
    second = tool.synth("click")
    assert first == second
    params, samples = _samples_from_bytes(first)
    assert params.framerate == 44100 and max(abs(v) for v in samples) <= MINUS_1_DBFS
    assert tool.synth("snap") == tool.synth("snap")


def _samples_from_bytes(data: bytes):
    with wave.open(io.BytesIO(data), "rb") as w:
        params = w.getparams()
        raw = w.readframes(w.getnframes())
    return params, struct.unpack("<%dh" % (len(raw) // 2), raw)
