"""Photo-sized JPEGs for the image benchmark, from the standard library alone.

    photo(rng, width, height, orientation) -> bytes

A baseline JPEG (YCbCr 4:4:4, 8 bits) whose blocks hold a brightness that
wanders along each row and a dozen nonzero frequencies each, about the
entropy a decoder meets in a photo. Encoding millions of blocks in Python
would take minutes per corpus, so each image is a random sequence of rows
drawn from a pool made once: a restart marker after every row of blocks
resets the decoder's prediction and aligns the row on a byte, so rows are
byte strings that concatenate. Every image's bytes differ (its own
sequence), and a decoder does a photo's work for each. `orientation` 6 or 8
adds an EXIF segment that turns it a quarter, as a phone's portrait photos
are.

The Huffman tables are the file's own (every code of one length), which
JPEG allows and every decoder reads.
"""

from __future__ import annotations

import random
import struct

# Every DC size (0-11) in a 4-bit code; every AC symbol used (runs 0-3 of
# zeros, sizes 1-7, and the end of block) in a 5-bit code.
DC_SYMBOLS = list(range(12))
AC_SYMBOLS = [0x00] + [(run << 4) | size for run in range(4) for size in range(1, 8)]
DC_CODE = {s: format(i, "04b") for i, s in enumerate(DC_SYMBOLS)}
AC_CODE = {s: format(i, "05b") for i, s in enumerate(AC_SYMBOLS)}
QUANT = 10
POOL_ROWS = 48


def _segment(marker: int, payload: bytes) -> bytes:
    return struct.pack(">HH", marker, len(payload) + 2) + payload


def _dht(table_class: int, symbols: list[int], length: int) -> bytes:
    bits = [0] * 16
    bits[length - 1] = len(symbols)
    return bytes([table_class << 4]) + bytes(bits) + bytes(symbols)


def _value_bits(value: int) -> tuple[int, str]:
    size = abs(value).bit_length()
    if size == 0:
        return 0, ""
    coded = value if value > 0 else value + (1 << size) - 1
    return size, format(coded, f"0{size}b")


def _row(rng: random.Random, blocks_per_row: int) -> bytes:
    """One row of MCUs, entropy-coded, padded and byte-stuffed."""
    bits: list[str] = []
    previous = [0, 0, 0]
    level = [rng.randint(-40, 40), rng.randint(-10, 10), rng.randint(-10, 10)]
    for _ in range(blocks_per_row):
        for component in range(3):
            spread = 6 if component == 0 else 2
            level[component] = max(-60, min(60, level[component] + rng.randint(-spread, spread)))
            size, value = _value_bits(level[component] - previous[component])
            previous[component] = level[component]
            bits.append(DC_CODE[size] + value)
            for k in range(1, rng.randint(6, 16)):
                magnitude = max(1, 48 // (k + 1)) if component == 0 else max(1, 12 // (k + 1))
                coefficient = rng.randint(1, magnitude) * rng.choice((-1, 1))
                size, value = _value_bits(coefficient)
                bits.append(AC_CODE[size] + value)
            bits.append(AC_CODE[0x00])
    stream = "".join(bits)
    stream += "1" * (-len(stream) % 8)
    data = int(stream, 2).to_bytes(len(stream) // 8, "big")
    return data.replace(b"\xff", b"\xff\x00")


_POOLS: dict[int, list[bytes]] = {}


def _pool(width: int) -> list[bytes]:
    if width not in _POOLS:
        rng = random.Random(f"photo-rows-{width}")
        _POOLS[width] = [_row(rng, width // 8) for _ in range(POOL_ROWS)]
    return _POOLS[width]


def _exif(orientation: int) -> bytes:
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8)
    tiff += struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff += struct.pack(">I", 0)
    return _segment(0xFFE1, b"Exif\x00\x00" + tiff)


def photo(rng: random.Random, width: int, height: int, orientation: int = 1) -> bytes:
    """A JPEG of width x height (multiples of 8), turned by `orientation`."""
    assert width % 8 == 0 and height % 8 == 0
    pool = _pool(width)
    out = bytearray(b"\xff\xd8")
    out += _segment(0xFFE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
    if orientation != 1:
        out += _exif(orientation)
    out += _segment(0xFFDB, b"\x00" + bytes([QUANT] * 64))
    components = b"".join(bytes([c, 0x11, 0]) for c in (1, 2, 3))
    out += _segment(0xFFC0, struct.pack(">BHHB", 8, height, width, 3) + components)
    out += _segment(0xFFC4, _dht(0, DC_SYMBOLS, 4) + _dht(1, AC_SYMBOLS, 5))
    out += _segment(0xFFDD, struct.pack(">H", width // 8))
    out += _segment(0xFFDA, b"\x03\x01\x00\x02\x00\x03\x00\x00\x3f\x00")
    rows = height // 8
    for r in range(rows):
        out += pool[rng.randrange(len(pool))]
        if r + 1 < rows:
            out += bytes([0xFF, 0xD0 + r % 8])
    out += b"\xff\xd9"
    return bytes(out)
