#!/usr/bin/env python3
"""Checks a proven period in a Grundy table file written by `zermelo grundy octal --out`,
independently of zermelo: the container's CRC-32, then G(n + p) = G(n) for e <= n < 2e' + p + t
(two-heap splits, the Guy–Smith bound; e' = max(e, 1), t = the last place of the code, which is
given on the command line so that nothing is taken from the file's own bookkeeping but e and p).

    scripts/check-octal-proof.py TABLE.zgt T
"""
import json
import struct
import sys
import zlib


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, t = sys.argv[1], int(sys.argv[2])
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"ZRMLTABL":
        sys.exit(f"{path}: not a zermelo table")
    header_len, payload_len = struct.unpack_from("<IQ", data, 12)
    if len(data) != 28 + header_len + payload_len:
        sys.exit(f"{path}: wrong length")
    if zlib.crc32(data[:-4]) != struct.unpack_from("<I", data, len(data) - 4)[0]:
        sys.exit(f"{path}: checksum mismatch")
    header = json.loads(data[24 : 24 + header_len])
    e, p = header["preperiod"], header["period"]
    base = 24 + header_len
    end = 2 * max(e, 1) + p + t
    if 2 * (end + p) > payload_len:
        sys.exit(f"{path}: the table stops before heap {end + p - 1}, which the check needs")
    # Byte slices compare as whole blocks: the values are little-endian u16.
    same = data[base + 2 * (e + p) : base + 2 * (end + p)] == data[base + 2 * e : base + 2 * end]
    print(f"{header['game']}: G(n + {p}) = G(n) for {e} <= n < {end}: {'yes' if same else 'NO'}")
    sys.exit(0 if same else 1)


main()
