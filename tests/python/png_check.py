"""Checks a PNG screenshot with the standard library only: it decodes (signature, IHDR, zlib
IDAT, the five scanline filters), and it is not blank. Prints width, height, distinct colours and
the share of non-white pixels; exits 1 when the file is not a PNG this reader understands, 2 when
it is blank (fewer distinct colours or non-white pixels than asked).

    python3 png_check.py shot.png [--min-colours 16] [--min-ink 0.01]
"""

from __future__ import annotations

import argparse
import struct
import sys
import zlib

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # colour type -> samples per pixel (8-bit, no palette)


def read_chunks(data: bytes):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG (bad signature)")
    pos = 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise ValueError(f"bad CRC in chunk {kind!r}")
        yield kind, body
        pos += 12 + length


def unfilter(raw: bytes, width: int, height: int, bpp: int) -> list[bytearray]:
    stride = width * bpp
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
            elif kind != 0:
                raise ValueError(f"unknown filter type {kind}")
        rows.append(line)
        prev = line
    return rows


def decode(path: str):
    data = open(path, "rb").read()
    header, idat = None, b""
    for kind, body in read_chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    if header is None:
        raise ValueError("no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in CHANNELS or interlace != 0:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    bpp = CHANNELS[colour]
    return width, height, bpp, unfilter(zlib.decompress(idat), width, height, bpp)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("png")
    parser.add_argument("--min-colours", type=int, default=16)
    parser.add_argument("--min-ink", type=float, default=0.01, help="share of non-white pixels")
    args = parser.parse_args()
    try:
        width, height, bpp, rows = decode(args.png)
    except (OSError, ValueError, zlib.error, struct.error) as exc:
        print(f"png_check: {args.png}: {exc}")
        return 1
    colours, ink = set(), 0
    for row in rows:
        for x in range(0, width * bpp, bpp):
            pixel = bytes(row[x:x + min(bpp, 3)])
            colours.add(pixel)
            ink += any(v < 245 for v in pixel)
    share = ink / max(1, width * height)
    print(f"png_check: {args.png}: {width}x{height}, {len(colours)} distinct colours, "
          f"{100 * share:.1f}% non-white")
    return 0 if len(colours) >= args.min_colours and share >= args.min_ink else 2


if __name__ == "__main__":
    sys.exit(main())
