#!/usr/bin/env python3
"""Synthesise the game's sound effects into assets/sounds/*.wav.

Everything is made from first principles with the standard library only
(math, random, wave): damped modal resonances for wood and card knocks,
band-passed noise for paper swishes, Karplus-Strong plucked strings for the
koto-like notes, a little FM for the bells and a small Schroeder room reverb.
Each sound has its own seeded random generator, so every run writes
byte-identical files.

    python tools/make_sounds.py            # write all sounds, print levels
    python tools/make_sounds.py snap yaku  # only some of them

Output: mono, 44.1 kHz, 16-bit PCM WAV; peaks at or below -1 dBFS, DC
removed, short fades at both ends.
"""

from __future__ import annotations

import io
import math
import random
import struct
import sys
import wave
from pathlib import Path

SR = 44100
TAU = 2.0 * math.pi
ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "assets" / "sounds"

Signal = list  # list[float]


# --------------------------------------------------------------------------
# Basic building blocks
# --------------------------------------------------------------------------


def silence(seconds: float) -> Signal:
    return [0.0] * int(round(seconds * SR))


def fade_tail(x: Signal, seconds: float = 0.012) -> Signal:
    """Raised-cosine fade over the last `seconds`, so a cut-off never clicks."""
    n = len(x)
    k = min(int(seconds * SR), n // 2)
    for i in range(k):
        x[n - 1 - i] *= math.sin(0.5 * math.pi * i / k) ** 2
    return x


def mix_into(dst: Signal, src: Signal, at: float = 0.0, gain: float = 1.0) -> Signal:
    """Add src into dst starting at `at` seconds (dst is extended if needed).

    The end of src is faded out first, so a truncated decay cannot click.
    """
    src = fade_tail(list(src))
    start = int(round(at * SR))
    end = start + len(src)
    if end > len(dst):
        dst.extend([0.0] * (end - len(dst)))
    for i, v in enumerate(src):
        dst[start + i] += gain * v
    return dst


def noise(n: int, rng: random.Random) -> Signal:
    return [rng.uniform(-1.0, 1.0) for _ in range(n)]


def biquad(x: Signal, kind: str, freq: float, q: float = 0.707) -> Signal:
    """RBJ-cookbook biquad: 'lp', 'hp' or 'bp' (0 dB peak)."""
    w0 = TAU * min(freq, SR * 0.45) / SR
    cw, sw = math.cos(w0), math.sin(w0)
    alpha = sw / (2.0 * q)
    if kind == "lp":
        b0, b1, b2 = (1 - cw) / 2, 1 - cw, (1 - cw) / 2
    elif kind == "hp":
        b0, b1, b2 = (1 + cw) / 2, -(1 + cw), (1 + cw) / 2
    elif kind == "bp":
        b0, b1, b2 = alpha, 0.0, -alpha
    else:
        raise ValueError(kind)
    a0, a1, a2 = 1 + alpha, -2 * cw, 1 - alpha
    b0, b1, b2, a1, a2 = b0 / a0, b1 / a0, b2 / a0, a1 / a0, a2 / a0
    y: Signal = []
    x1 = x2 = y1 = y2 = 0.0
    for v in x:
        out = b0 * v + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1, y2, y1 = x1, v, y1, out
        y.append(out)
    return y


def sweep_bandpass(x: Signal, f_start: float, f_end: float, q: float) -> Signal:
    """Band-pass whose centre glides exponentially from f_start to f_end."""
    n = len(x)
    y: Signal = []
    x1 = x2 = y1 = y2 = 0.0
    b0 = b2 = a1 = a2 = 0.0
    for i, v in enumerate(x):
        if i % 16 == 0:
            f = f_start * (f_end / f_start) ** (i / max(1, n - 1))
            w0 = TAU * f / SR
            alpha = math.sin(w0) / (2.0 * q)
            a0 = 1 + alpha
            b0, b2 = alpha / a0, -alpha / a0
            a1, a2 = -2 * math.cos(w0) / a0, (1 - alpha) / a0
        out = b0 * v + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1, y2, y1 = x1, v, y1, out
        y.append(out)
    return y


def one_pole_lp(x: Signal, freq: float) -> Signal:
    a = 1.0 - math.exp(-TAU * freq / SR)
    y: Signal = []
    s = 0.0
    for v in x:
        s += a * (v - s)
        y.append(s)
    return y


def exp_env(n: int, tau: float, attack: float = 0.0) -> Signal:
    """Exponential decay with time constant tau (s) and an optional sine attack."""
    na = int(attack * SR)
    env = []
    for i in range(n):
        t = i / SR
        e = math.exp(-t / tau)
        if i < na:
            e *= math.sin(0.5 * math.pi * i / na) ** 2
        env.append(e)
    return env


def mul(a: Signal, b: Signal) -> Signal:
    return [x * y for x, y in zip(a, b)]


def modes(spec: list[tuple[float, float, float]], seconds: float) -> Signal:
    """Sum of exponentially damped sines: (freq Hz, amplitude, decay tau s)."""
    n = int(seconds * SR)
    out = [0.0] * n
    for f, amp, tau in spec:
        # Damped-sine recurrence for amp * r^i * sin(w i):
        # y[i] = 2 r cos(w) y[i-1] - r^2 y[i-2], with y[0] = 0.
        w = TAU * f / SR
        r = math.exp(-1.0 / (tau * SR))
        c1, c2 = 2 * r * math.cos(w), -r * r
        y2, y1 = 0.0, amp * r * math.sin(w)
        if n > 1:
            out[1] += y1
        for i in range(2, n):
            y = c1 * y1 + c2 * y2
            y2, y1 = y1, y
            out[i] += y
    return fade_tail(out)


def noise_burst(seconds: float, tau: float, rng: random.Random, kind: str, freq: float,
                q: float = 0.707, attack: float = 0.0) -> Signal:
    n = int(seconds * SR)
    return mul(biquad(noise(n, rng), kind, freq, q), exp_env(n, tau, attack))


# --------------------------------------------------------------------------
# Instruments
# --------------------------------------------------------------------------


def pluck(freq: float, seconds: float, rng: random.Random, *, t60: float = 1.2,
          brightness: float = 0.6, position: float = 0.14, body: float = 0.25) -> Signal:
    """A koto-like plucked string (Karplus-Strong with fractional-delay tuning).

    brightness 0..1 sets the excitation's low-pass, position the pluck point
    (a comb notch like plucking near the bridge), t60 the decay time and body
    the level of two wooden body resonances mixed under the string.
    """
    n = int(seconds * SR)
    period = SR / freq
    delay = int(period - 0.5 - 0.1)
    frac = period - 0.5 - delay          # fractional part, in [0.1, 1.1)
    ap_c = (1.0 - frac) / (1.0 + frac)   # first-order all-pass tuning coefficient
    rho = 0.001 ** (1.0 / (freq * t60))  # loop gain per period for the wanted T60

    # Excitation: one period of filtered noise with a pluck-position comb.
    exc = noise(delay + 1, rng)
    exc = one_pole_lp(exc, 800.0 + 9000.0 * brightness ** 2)
    p = max(1, int(position * delay))
    exc = [exc[i] - (exc[i - p] if i >= p else 0.0) for i in range(len(exc))]
    mean = sum(exc) / len(exc)
    exc = [v - mean for v in exc]

    y = [0.0] * n
    ap_x1 = ap_y1 = 0.0
    for i in range(n):
        a = y[i - delay] if i >= delay else 0.0
        b = y[i - delay - 1] if i >= delay + 1 else 0.0
        u = 0.5 * (a + b)
        v = ap_c * u + ap_x1 - ap_c * ap_y1   # all-pass fractional delay
        ap_x1, ap_y1 = u, v
        y[i] = (exc[i] if i < len(exc) else 0.0) + rho * v
    peak = max(abs(v) for v in y) or 1.0
    y = [v / peak for v in y]
    if body > 0:
        b1 = biquad(y, "bp", 320.0, 3.0)
        b2 = biquad(y, "bp", 780.0, 4.0)
        y = [v + body * (p1 + 0.7 * p2) for v, p1, p2 in zip(y, b1, b2)]
    # A gentle fade in so the first sample is not a step, and the pick noise.
    pick = noise_burst(0.006, 0.0012, rng, "hp", 2500.0)
    mix_into(y, pick, 0.0, 0.12 * brightness)
    fade = int(0.0015 * SR)
    for i in range(min(fade, n)):
        y[i] *= i / fade
    return y


def bell(freq: float, seconds: float, *, ratio: float = 1.4, index: float = 2.5,
         tau: float = 0.6, index_tau: float = 0.15) -> Signal:
    """An FM bell: inharmonic modulator ratio, decaying modulation index."""
    n = int(seconds * SR)
    out = []
    wc, wm = TAU * freq / SR, TAU * freq * ratio / SR
    attack = int(0.004 * SR)
    for i in range(n):
        t = i / SR
        env = math.exp(-t / tau)
        if i < attack:
            env *= i / attack
        idx = index * math.exp(-t / index_tau) + 0.3
        out.append(env * math.sin(wc * i + idx * math.sin(wm * i)))
    return out


def woodblock(freq: float, seconds: float = 0.12, amp: float = 1.0) -> Signal:
    return modes([(freq, amp, 0.030), (freq * 2.76, 0.35 * amp, 0.012),
                  (freq * 5.40, 0.12 * amp, 0.005)], seconds)


def reverb(x: Signal, wet: float = 0.18, room: float = 0.78, damp: float = 0.35,
           tail: float = 0.4) -> Signal:
    """A small Schroeder/Freeverb-style room (4 damped combs + 2 all-passes)."""
    x = list(x) + [0.0] * int(tail * SR)
    n = len(x)
    acc = [0.0] * n
    for d in (1116, 1188, 1277, 1356):
        buf = [0.0] * d
        idx = 0
        store = 0.0
        for i in range(n):
            out = buf[idx]
            store = out * (1 - damp) + store * damp
            buf[idx] = x[i] + store * room
            idx = idx + 1 if idx + 1 < d else 0
            acc[i] += out
    for d in (556, 441):
        buf = [0.0] * d
        idx = 0
        for i in range(n):
            bo = buf[idx]
            inp = acc[i]
            buf[idx] = inp + bo * 0.5
            acc[i] = bo - inp
            idx = idx + 1 if idx + 1 < d else 0
    return [dry + wet * 0.25 * w for dry, w in zip(x, acc)]


def note(name: str) -> float:
    """'D5' -> Hz (equal temperament, A4 = 440). Flats as 'Eb4'."""
    names = {"C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2}
    semis = names[name[0]]
    rest = name[1:]
    if rest.startswith("b"):
        semis -= 1
        rest = rest[1:]
    elif rest.startswith("#"):
        semis += 1
        rest = rest[1:]
    octave = int(rest)
    return 440.0 * 2 ** ((semis + 12 * (octave - 4)) / 12)


# --------------------------------------------------------------------------
# The sounds
# --------------------------------------------------------------------------


def _wood_knock(rng: random.Random, *, scale: float = 1.0, bright: float = 1.0,
                seconds: float = 0.12) -> Signal:
    """A card slapped onto a wooden table: transient + paper slap + wood modes."""
    body = modes([(205 * scale, 0.30, 0.024), (468 * scale, 0.40, 0.021),
                  (861 * scale, 0.34, 0.016), (1390 * scale, 0.26, 0.010),
                  (2330 * scale, 0.16 * bright, 0.006)], seconds)
    click = noise_burst(seconds, 0.0008, rng, "hp", 2200.0)
    slap = noise_burst(seconds, 0.007, rng, "bp", 1800.0 * bright, 0.9)
    out = [b + 0.8 * bright * c + 0.75 * s for b, c, s in zip(body, click, slap)]
    return out


def snd_snap(rng: random.Random) -> Signal:
    return _wood_knock(rng, seconds=0.13)


def _clack(rng: random.Random, amp: float = 1.0) -> Signal:
    sec = 0.09
    tone = modes([(940, 0.28, 0.012), (1930, 0.34, 0.009), (3120, 0.30, 0.006),
                  (4710, 0.18, 0.004)], sec)
    click = noise_burst(sec, 0.0006, rng, "hp", 3000.0)
    slap = noise_burst(sec, 0.004, rng, "bp", 3400.0, 1.0)
    return [amp * (t + 0.5 * c + 0.55 * s) for t, c, s in zip(tone, click, slap)]


def snd_capture(rng: random.Random) -> Signal:
    out = silence(0.16)
    mix_into(out, _clack(rng, 0.7), 0.0)
    mix_into(out, _clack(rng, 1.0), 0.034)
    mix_into(out, _wood_knock(rng, scale=1.1, bright=0.6, seconds=0.12), 0.036, 0.45)
    return out


def _swish(rng: random.Random, seconds: float, f0: float, f1: float,
           rise: float = 0.45) -> Signal:
    n = int(seconds * SR)
    s = sweep_bandpass(noise(n, rng), f0, f1, 1.1)
    nr = max(1, int(rise * n))
    env = []
    for i in range(n):
        if i < nr:
            e = math.sin(0.5 * math.pi * i / nr) ** 2
        else:
            e = math.cos(0.5 * math.pi * (i - nr) / (n - nr)) ** 2
        env.append(e)
    return mul(s, env)


def snd_flip(rng: random.Random) -> Signal:
    out = silence(0.30)
    mix_into(out, _swish(rng, 0.15, 1100.0, 4200.0, 0.55), 0.0, 0.9)
    tap = biquad(_wood_knock(rng, scale=1.05, bright=0.7, seconds=0.12), "lp", 3500.0)
    mix_into(out, tap, 0.14, 0.7)
    return out


def _tick(rng: random.Random, amp: float) -> Signal:
    sec = 0.025
    centre = rng.uniform(2600.0, 4400.0)
    t = noise_burst(sec, 0.0016, rng, "bp", centre, 1.4)
    m = modes([(rng.uniform(1900.0, 2600.0), 0.25, 0.003)], sec)
    return [amp * (a + b) for a, b in zip(t, m)]


def snd_shuffle(rng: random.Random) -> Signal:
    """A riffle: ~34 quick ticks over a soft whirr, then the deck squared up."""
    out = silence(0.85)
    start, end = 0.03, 0.58
    count = 34
    whirr = _swish(rng, end - start + 0.05, 2000.0, 3200.0, 0.2)
    mix_into(out, whirr, start, 0.22)
    for k in range(count):
        u = k / (count - 1)
        # slightly accelerating riffle with jitter
        t = start + (end - start) * (u ** 1.15) + rng.uniform(-0.003, 0.003)
        amp = (0.45 + 0.55 * math.sin(math.pi * (0.15 + 0.8 * u))) * rng.uniform(0.75, 1.0)
        mix_into(out, _tick(rng, amp), max(0.0, t))
    squared = biquad(_wood_knock(rng, scale=0.95, bright=0.5, seconds=0.12), "lp", 2500.0)
    mix_into(out, squared, 0.64, 0.75)
    return out


def snd_deal(rng: random.Random) -> Signal:
    """Cards dealt in a quick burst: eight soft fwip-and-tap pairs."""
    out = silence(0.72)
    for k in range(8):
        t = 0.01 + k * 0.072 + rng.uniform(-0.004, 0.004)
        amp = rng.uniform(0.8, 1.0)
        mix_into(out, _swish(rng, 0.04, 1800.0, 4000.0, 0.5), t, 0.55 * amp)
        tap = biquad(_wood_knock(rng, scale=rng.uniform(1.0, 1.15), bright=0.6,
                                 seconds=0.08), "lp", 3200.0)
        mix_into(out, tap, t + 0.034, 0.45 * amp)
    return out


def snd_click(rng: random.Random) -> Signal:
    sec = 0.035
    tone = modes([(2150.0, 0.5, 0.0045), (1210.0, 0.35, 0.006), (4300.0, 0.15, 0.002)], sec)
    tick = noise_burst(sec, 0.0005, rng, "hp", 3000.0)
    return [t + 0.35 * c for t, c in zip(tone, tick)]


def snd_koikoi(rng: random.Random) -> Signal:
    """The 'koi-koi!' call: two bright koto plucks rising a fourth, with wood blocks."""
    out = silence(0.55)
    for at, n_, amp in ((0.0, "A5", 0.8), (0.13, "D6", 1.0)):
        f = note(n_)
        mix_into(out, pluck(f, 0.5, rng, t60=0.9, brightness=0.85, body=0.2), at, amp)
        mix_into(out, woodblock(f / 2, 0.1), at, 0.35 * amp)
        mix_into(out, pluck(f * 2, 0.3, rng, t60=0.5, brightness=0.6, body=0.0), at + 0.003,
                 0.18 * amp)
    return reverb(out, wet=0.22, tail=0.3)


def snd_stop(rng: random.Random) -> Signal:
    """'Stop': a settling two-note fall ending on a low, soft chime."""
    out = silence(1.1)
    mix_into(out, pluck(note("A4"), 0.5, rng, t60=0.8, brightness=0.55), 0.0, 0.7)
    mix_into(out, pluck(note("D4"), 0.93, rng, t60=1.4, brightness=0.5), 0.17, 0.9)
    mix_into(out, pluck(note("D3"), 0.9, rng, t60=1.4, brightness=0.35, body=0.35), 0.17, 0.5)
    mix_into(out, bell(note("D5"), 0.9, ratio=1.4, index=1.6, tau=0.35, index_tau=0.08),
             0.17, 0.22)
    mix_into(out, bell(note("A4"), 0.9, ratio=2.0, index=1.0, tau=0.4, index_tau=0.1),
             0.18, 0.12)
    return reverb(out, wet=0.25, tail=0.25)


def snd_yaku(rng: random.Random) -> Signal:
    """A short fanfare: koto plucks up the yo pentatonic scale, then a strummed chord."""
    out = silence(0.95)
    for k, n_ in enumerate(("D5", "E5", "G5", "A5")):
        mix_into(out, pluck(note(n_), 0.5, rng, t60=0.9, brightness=0.7), 0.085 * k, 0.75)
    chord_at = 0.36
    for k, n_ in enumerate(("D5", "A5", "D6")):
        mix_into(out, pluck(note(n_), 0.6, rng, t60=1.3, brightness=0.75), chord_at + 0.018 * k,
                 0.7)
    mix_into(out, bell(note("D6"), 0.55, ratio=3.5, index=1.2, tau=0.3, index_tau=0.05),
             chord_at + 0.04, 0.12)
    return reverb(out, wet=0.24, tail=0.2)


def snd_win(rng: random.Random) -> Signal:
    out = silence(1.3)
    run = ("D5", "E5", "G5", "A5", "B5", "D6")
    for k, n_ in enumerate(run):
        mix_into(out, pluck(note(n_), 0.45, rng, t60=0.8, brightness=0.75), 0.07 * k, 0.65)
    chord_at = 0.5
    for k, n_ in enumerate(("D4", "A4", "D5", "E5", "A5", "D6")):
        mix_into(out, pluck(note(n_), 0.8, rng, t60=1.6, brightness=0.7,
                            body=0.3 if k < 2 else 0.2), chord_at + 0.022 * k, 0.55)
    mix_into(out, bell(note("A5"), 0.8, ratio=3.5, index=1.4, tau=0.35, index_tau=0.05),
             chord_at + 0.12, 0.12)
    mix_into(out, bell(note("D6"), 0.7, ratio=3.5, index=1.4, tau=0.3, index_tau=0.05),
             chord_at + 0.2, 0.1)
    return reverb(out, wet=0.26, tail=0.25)


def snd_lose(rng: random.Random) -> Signal:
    """A slow, darker descent in the miyako-bushi scale, settling on a low D."""
    out = silence(1.2)
    for at, n_, amp in ((0.0, "Bb4", 0.6), (0.2, "A4", 0.62), (0.42, "Eb4", 0.66)):
        mix_into(out, pluck(note(n_), 0.7, rng, t60=1.0, brightness=0.4), at, amp)
    mix_into(out, pluck(note("D4"), 0.75, rng, t60=1.2, brightness=0.38), 0.66, 0.75)
    mix_into(out, pluck(note("D3"), 0.75, rng, t60=1.2, brightness=0.3, body=0.4), 0.67, 0.55)
    mix_into(out, bell(note("D4"), 0.72, ratio=1.41, index=1.2, tau=0.3, index_tau=0.1),
             0.67, 0.12)
    return reverb(out, wet=0.24, tail=0.2)


# name -> (generator, seed, target peak dBFS)
SOUNDS: dict[str, tuple] = {
    "snap": (snd_snap, 101, -3.0),
    "capture": (snd_capture, 102, -3.0),
    "flip": (snd_flip, 103, -4.0),
    "shuffle": (snd_shuffle, 104, -5.0),
    "deal": (snd_deal, 105, -7.0),
    "koikoi": (snd_koikoi, 106, -2.0),
    "stop": (snd_stop, 107, -3.0),
    "yaku": (snd_yaku, 108, -2.0),
    "click": (snd_click, 109, -9.0),
    "win": (snd_win, 110, -2.0),
    "lose": (snd_lose, 111, -3.0),
}


# --------------------------------------------------------------------------
# Background music: a quiet koto loop
# --------------------------------------------------------------------------

# (beat, note, length in beats, gain): a slow phrase in the yo pentatonic scale
# (D E G A B) over a low drone, four bars of four beats, played twice with a variation.
MUSIC_BPM = 66
_PHRASE = (
    (0.0, "A4", 2.0, 0.55), (2.0, "B4", 1.0, 0.45), (3.0, "D5", 1.0, 0.5),
    (4.0, "E5", 2.5, 0.55), (6.5, "D5", 0.5, 0.4), (7.0, "B4", 1.0, 0.45),
    (8.0, "A4", 2.0, 0.5), (10.0, "G4", 1.0, 0.42), (11.0, "A4", 1.0, 0.45),
    (12.0, "E4", 3.0, 0.5), (15.0, "G4", 1.0, 0.38),
)
_ANSWER = (
    (0.0, "D5", 1.5, 0.5), (1.5, "E5", 0.5, 0.4), (2.0, "G5", 2.0, 0.5),
    (4.0, "E5", 1.0, 0.45), (5.0, "D5", 1.0, 0.45), (6.0, "B4", 2.0, 0.48),
    (8.0, "A4", 1.5, 0.48), (9.5, "B4", 0.5, 0.38), (10.0, "D5", 2.0, 0.48),
    (12.0, "A4", 4.0, 0.52),
)
_DRONE = (("D3", 0.0), ("A2", 8.0), ("D3", 16.0), ("G2", 24.0))


def music(rng: random.Random) -> Signal:
    """32 beats at MUSIC_BPM; every note's tail is wrapped to the start so it loops cleanly."""
    beat = 60.0 / MUSIC_BPM
    length = 32 * beat
    out = silence(length + 4.0)
    for offset, phrase in ((0.0, _PHRASE), (16.0, _ANSWER)):
        for at, name, beats, gain in phrase:
            t60 = 1.4 + 0.5 * beats
            mix_into(out, pluck(note(name), min(3.5, beats * beat + 1.6), rng, t60=t60,
                                brightness=0.45, body=0.3), (offset + at) * beat, gain)
    for name, at in _DRONE:
        mix_into(out, pluck(note(name), 5.0, rng, t60=4.0, brightness=0.25, body=0.45),
                 at * beat, 0.35)
    n = int(length * SR)
    loop = out[:n]
    for i, v in enumerate(out[n:]):  # wrap the ringing tails around
        loop[i % n] += v
    return loop


def synth_music() -> bytes:
    """The background loop as WAV bytes (deterministic). No fades: it loops end to start."""
    x = biquad(music(random.Random(2024)), "hp", 30.0, 0.6)
    mean = sum(x) / len(x)
    x = [v - mean for v in x]
    peak = max(abs(v) for v in x) or 1.0
    g = 10 ** (-6.0 / 20.0) / peak   # quiet under the effects
    return to_wav_bytes([v * g for v in x])


# --------------------------------------------------------------------------
# Mastering and output
# --------------------------------------------------------------------------


def master(x: Signal, peak_db: float, fade_in: float = 0.001, fade_out: float = 0.02) -> Signal:
    """Remove DC/rumble, fade both ends, normalise to peak_db (<= -1 dBFS)."""
    peak_db = min(peak_db, -1.0)
    y = biquad(x, "hp", 30.0, 0.6)
    n = len(y)
    fi = max(1, int(fade_in * SR))
    fo = max(1, min(int(fade_out * SR), n // 3))
    for i in range(fi):
        y[i] *= math.sin(0.5 * math.pi * i / fi) ** 2
    for i in range(fo):
        y[n - 1 - i] *= math.sin(0.5 * math.pi * i / fo) ** 2
    # Remove what DC is left with a window-shaped offset (keeps the ends at 0).
    win = [math.sin(math.pi * i / (n - 1)) ** 2 for i in range(n)]
    k = sum(y) / sum(win)
    y = [v - k * w for v, w in zip(y, win)]
    peak = max(abs(v) for v in y) or 1.0
    g = 10 ** (peak_db / 20.0) / peak
    return [v * g for v in y]


def to_wav_bytes(x: Signal) -> bytes:
    frames = struct.pack("<%dh" % len(x),
                         *(max(-32767, min(32767, int(round(v * 32767.0)))) for v in x))
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes(frames)
    return buf.getvalue()


def synth(name: str) -> bytes:
    """Render one sound to WAV bytes (deterministic)."""
    gen, seed, peak_db = SOUNDS[name]
    rng = random.Random(seed)
    fade_out = 0.004 if name == "click" else 0.02 if name in ("snap", "capture") else 0.05
    return to_wav_bytes(master(gen(rng), peak_db, fade_out=fade_out))


def stats(data: bytes) -> dict:
    with wave.open(io.BytesIO(data), "rb") as w:
        n = w.getnframes()
        raw = w.readframes(n)
    s = struct.unpack("<%dh" % n, raw)
    peak = max(abs(v) for v in s) / 32768.0
    rms = math.sqrt(sum(v * v for v in s) / n) / 32768.0
    return {
        "seconds": n / SR,
        "peak_dbfs": 20 * math.log10(peak) if peak else -999.0,
        "rms_dbfs": 20 * math.log10(rms) if rms else -999.0,
        "dc": sum(s) / n / 32768.0,
        "first": s[0],
        "last": s[-1],
    }


def main(argv: list[str]) -> int:
    names = argv or list(SOUNDS) + ["music"]
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for name in names:
        data = synth_music() if name == "music" else synth(name)
        (OUT_DIR / f"{name}.wav").write_bytes(data)
        st = stats(data)
        print(f"{name + '.wav':13s} {st['seconds']*1000:6.0f} ms  peak {st['peak_dbfs']:6.2f} dBFS"
              f"  rms {st['rms_dbfs']:6.1f} dBFS  dc {st['dc']:+.5f}  ends {st['first']},{st['last']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
