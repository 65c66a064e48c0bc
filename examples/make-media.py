#!/usr/bin/env python3
"""Draws the example stories' images and synthesises the bell, so every media file under examples/ can be
rebuilt from this one script (no image or sound is copied from anywhere).

Needs python3 and, for the WebP and OGG files, Debian's `webp` (cwebp) and `vorbis-tools` (oggenc):
    apt-get install webp vorbis-tools
    python3 examples/make-media.py
"""
import math
import os
import struct
import subprocess
import tempfile
import wave
import zlib

ROOT = os.path.dirname(os.path.abspath(__file__))


class Canvas:
    def __init__(self, w, h, rgb=(0, 0, 0)):
        self.w, self.h = w, h
        self.px = [[rgb] * w for _ in range(h)]

    def put(self, x, y, rgb):
        if 0 <= x < self.w and 0 <= y < self.h:
            self.px[y][x] = rgb

    def rect(self, x0, y0, x1, y1, rgb):
        for y in range(max(0, y0), min(self.h, y1)):
            for x in range(max(0, x0), min(self.w, x1)):
                self.px[y][x] = rgb

    def vgradient(self, y0, y1, top, bottom):
        for y in range(y0, y1):
            t = (y - y0) / max(1, y1 - y0 - 1)
            rgb = tuple(round(a + (b - a) * t) for a, b in zip(top, bottom))
            self.rect(0, y, self.w, y + 1, rgb)

    def disc(self, cx, cy, r, rgb):
        for y in range(cy - r, cy + r + 1):
            for x in range(cx - r, cx + r + 1):
                if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
                    self.put(x, y, rgb)

    def polygon(self, pts, rgb):
        ys = [p[1] for p in pts]
        for y in range(max(0, min(ys)), min(self.h, max(ys) + 1)):
            xs = []
            for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]):
                if (y0 <= y < y1) or (y1 <= y < y0):
                    xs.append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
            xs.sort()
            for a, b in zip(xs[::2], xs[1::2]):
                self.rect(round(a), y, round(b) + 1, y + 1, rgb)

    def line(self, x0, y0, x1, y1, rgb, width=1):
        n = max(abs(x1 - x0), abs(y1 - y0), 1)
        for i in range(n + 1):
            x = round(x0 + (x1 - x0) * i / n)
            y = round(y0 + (y1 - y0) * i / n)
            self.rect(x - width // 2, y - width // 2, x + (width + 1) // 2, y + (width + 1) // 2, rgb)

    def png(self):
        raw = b"".join(b"\x00" + bytes(c for rgb in row for c in rgb) for row in self.px)

        def chunk(kind, data):
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

        head = struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def save_png(canvas, rel):
    path = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(canvas.png())


def save_webp(canvas, rel, quality=60):
    path = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with tempfile.NamedTemporaryFile(suffix=".png") as tmp:
        tmp.write(canvas.png())
        tmp.flush()
        subprocess.run(["cwebp", "-quiet", "-q", str(quality), "-metadata", "none", tmp.name, "-o", path], check=True)


def sea_and_sky(c, horizon, sky_top, sky_bottom, sea_top, sea_bottom):
    c.vgradient(0, horizon, sky_top, sky_bottom)
    c.vgradient(horizon, c.h, sea_top, sea_bottom)


def bell(c, cx, top, size, rgb):
    c.polygon([(cx - size // 3, top), (cx + size // 3, top), (cx + size // 2, top + size), (cx - size // 2, top + size)], rgb)
    c.rect(cx - size // 2 - 3, top + size, cx + size // 2 + 4, top + size + 4, rgb)
    c.disc(cx, top + size + 7, 3, rgb)
    c.rect(cx - 2, top - 6, cx + 3, top, rgb)


def tide_bell():
    cover = Canvas(240, 160)
    sea_and_sky(cover, 104, (34, 30, 74), (214, 120, 96), (40, 64, 96), (16, 28, 48))
    cover.disc(170, 96, 14, (250, 200, 120))
    cover.rect(0, 104, 240, 106, (120, 110, 140))
    bell(cover, 90, 40, 48, (24, 20, 30))
    save_webp(cover, "tide-bell/assets/cover.webp")

    shore = Canvas(320, 180)
    sea_and_sky(shore, 80, (120, 150, 190), (220, 214, 200), (70, 110, 130), (50, 80, 100))
    shore.polygon([(0, 120), (320, 104), (320, 180), (0, 180)], (196, 176, 130))
    shore.polygon([(150, 180), (190, 180), (232, 84), (222, 84)], (120, 112, 100))
    shore.rect(214, 60, 244, 86, (90, 84, 80))
    shore.polygon([(210, 60), (248, 60), (229, 44)], (60, 56, 56))
    for x in range(20, 140, 22):
        shore.line(x, 150, x + 10, 146, (110, 150, 150), 2)
    save_webp(shore, "tide-bell/assets/shore.webp")


def harbour_heist():
    cover = Canvas(240, 160)
    sea_and_sky(cover, 90, (10, 14, 34), (30, 40, 70), (14, 24, 44), (6, 10, 20))
    cover.disc(196, 28, 10, (230, 230, 210))
    cover.rect(20, 60, 120, 110, (40, 36, 44))
    cover.rect(30, 70, 44, 84, (240, 200, 90))
    cover.polygon([(20, 60), (120, 60), (70, 34)], (30, 26, 34))
    cover.rect(140, 96, 220, 104, (70, 50, 40))
    save_webp(cover, "harbour-heist/assets/cover.webp")

    m = Canvas(256, 192, (74, 120, 160))
    m.polygon([(0, 0), (256, 0), (256, 70), (0, 90)], (210, 196, 160))
    for x in range(0, 256, 32):
        m.line(x, 0, x, 191, (96, 140, 176))
    for y in range(0, 192, 32):
        m.line(0, y, 255, y, (96, 140, 176))
    m.rect(30, 20, 90, 60, (150, 100, 70))
    m.rect(120, 16, 200, 56, (120, 120, 130))
    m.rect(60, 80, 70, 170, (110, 80, 60))
    m.rect(150, 72, 160, 150, (110, 80, 60))
    m.rect(150, 140, 220, 150, (110, 80, 60))
    m.line(176, 120, 188, 132, (200, 30, 30), 3)
    m.line(188, 120, 176, 132, (200, 30, 30), 3)
    m.line(64, 60, 150, 36, (60, 60, 60), 1)
    save_png(m, "harbour-heist/assets/harbour-map.png")


def fencing_lesson():
    cover = Canvas(240, 160)
    cover.vgradient(0, 160, (230, 220, 196), (170, 150, 120))
    cover.rect(0, 130, 240, 160, (120, 96, 70))
    cover.line(40, 120, 200, 40, (60, 60, 70), 3)
    cover.line(40, 40, 200, 120, (60, 60, 70), 3)
    cover.disc(58, 111, 8, (150, 30, 40))
    cover.disc(182, 111, 8, (150, 30, 40))
    save_webp(cover, "fencing-lesson/assets/cover.webp")


def bell_sound(rel, seconds=1.2, rate=16000):
    """A struck bell: a few inharmonic partials with exponential decay, encoded to Ogg Vorbis."""
    partials = [(220.0, 1.0, 1.6), (440.0 * 1.19, 0.5, 2.4), (220.0 * 2.0, 0.6, 2.0), (220.0 * 2.76, 0.3, 3.5)]
    frames = bytearray()
    for i in range(int(seconds * rate)):
        t = i / rate
        v = sum(a * math.exp(-d * t) * math.sin(2 * math.pi * f * t) for f, a, d in partials) / 2.4
        v *= min(1.0, t * 200)
        frames += struct.pack("<h", int(max(-1.0, min(1.0, v)) * 30000))
    path = os.path.join(ROOT, rel)
    with tempfile.NamedTemporaryFile(suffix=".wav") as tmp:
        with wave.open(tmp.name, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(bytes(frames))
        subprocess.run(["oggenc", "-Q", "-q", "0", "--serial", "20", "-o", path, tmp.name], check=True)


if __name__ == "__main__":
    tide_bell()
    harbour_heist()
    fencing_lesson()
    bell_sound("tide-bell/assets/bell.ogg")
    for d, _, files in os.walk(ROOT):
        for f in files:
            if f.endswith((".webp", ".png", ".ogg")):
                p = os.path.join(d, f)
                print(f"{os.path.relpath(p, ROOT)}: {os.path.getsize(p)} bytes")
