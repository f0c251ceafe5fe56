#!/usr/bin/env python3
"""Check an RMSNorm kernel's output dump against a float64 reference (numpy only).

    y[r, i] = x[r, i] / sqrt(mean_i(x[r, :]^2) + eps) * w[i]

Inputs are raw little-endian arrays without a header, in the test dtype (bf16 as its
16-bit pattern): --x (rows*hidden), optional --w (hidden), --y (rows*hidden, the kernel
output). Exit status: 0 pass, 1 mismatch, 2 bad input.

    python check_rmsnorm.py --x x.bin --w w.bin --y y.bin --rows 4608 --hidden 3072
    python check_rmsnorm.py --self-test
"""
import argparse
import sys

import numpy as np

TOLERANCES = {  # dtype: (atol, rtol)
    "bf16": (1e-2, 1.6e-2),
    "fp16": (1e-3, 1e-3),
    "fp32": (1e-5, 1e-5),
}


def bf16_to_f64(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def f32_to_bf16(values):
    """Round float32 values to bf16 bit patterns, round to nearest even."""
    u = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    bits[np.isnan(values)] = 0x7FC0
    return bits


def load(path, dtype, count):
    raw = np.fromfile(path, dtype={"bf16": np.uint16, "fp16": np.float16, "fp32": np.float32}[dtype])
    if raw.size != count:
        raise ValueError(f"{path}: expected {count} elements, found {raw.size}")
    return bf16_to_f64(raw) if dtype == "bf16" else raw.astype(np.float64)


def reference(x, w, eps):
    y = x / np.sqrt(np.mean(x * x, axis=1, keepdims=True) + eps)
    return y if w is None else y * w


def compare(y, ref, atol, rtol):
    err = np.abs(y - ref)
    finite = np.isfinite(y)
    bad = ~finite | ~(err <= atol + rtol * np.abs(ref))
    big = np.abs(ref) > 1e-3
    return {
        "ok": not bad.any(),
        "mismatches": int(bad.sum()),
        "non_finite": int((~finite).sum()),
        "max_abs": float(err[finite].max()) if finite.any() else (0.0 if y.size == 0 else float("nan")),
        "max_rel": float((err[big & finite] / np.abs(ref[big & finite])).max()) if (big & finite).any() else 0.0,
        "first_bad": np.argwhere(bad)[0].tolist() if bad.any() else None,
    }


def self_test():
    rng = np.random.default_rng(0)
    rows, hidden, eps = 64, 3001, 1e-6
    x = rng.standard_normal((rows, hidden)).astype(np.float32)
    x[3::7] *= 64.0
    x[5::7] *= 1e-3
    xb = bf16_to_f64(f32_to_bf16(x))
    wb = bf16_to_f64(f32_to_bf16(1.0 + 0.1 * rng.standard_normal(hidden).astype(np.float32)))
    ref = reference(xb, wb, eps)
    atol, rtol = TOLERANCES["bf16"]
    good = bf16_to_f64(f32_to_bf16(ref.astype(np.float32)))
    cases = {
        "correct": (good, True),
        "no weight": (bf16_to_f64(f32_to_bf16(reference(xb, None, eps).astype(np.float32))), False),
        "no eps": (bf16_to_f64(f32_to_bf16(reference(xb, wb, 0.0).astype(np.float32))), False),
        "one NaN": (np.where(np.arange(good.size).reshape(good.shape) == 777, np.nan, good), False),
    }
    ok = True
    for name, (y, expect) in cases.items():
        got = compare(y, ref, atol, rtol)["ok"]
        ok &= got == expect
        print(f"{'ok  ' if got == expect else 'FAIL'} {name}: passed={got}, expected {expect}")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--x", help="input dump, rows*hidden elements")
    ap.add_argument("--w", help="weight dump, hidden elements (omit for no weight)")
    ap.add_argument("--y", help="kernel output dump, rows*hidden elements")
    ap.add_argument("--rows", type=int)
    ap.add_argument("--hidden", type=int)
    ap.add_argument("--eps", type=float, default=1e-6)
    ap.add_argument("--dtype", choices=sorted(TOLERANCES), default="bf16")
    ap.add_argument("--atol", type=float, help="override the dtype's absolute tolerance")
    ap.add_argument("--rtol", type=float, help="override the dtype's relative tolerance")
    ap.add_argument("--self-test", action="store_true", help="check this script on synthetic data")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if not (args.x and args.y and args.rows is not None and args.hidden):
        ap.error("--x, --y, --rows and --hidden are required")
    try:
        n = args.rows * args.hidden
        x = load(args.x, args.dtype, n).reshape(args.rows, args.hidden)
        y = load(args.y, args.dtype, n).reshape(args.rows, args.hidden)
        w = load(args.w, args.dtype, args.hidden) if args.w else None
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    atol, rtol = TOLERANCES[args.dtype]
    atol = args.atol if args.atol is not None else atol
    rtol = args.rtol if args.rtol is not None else rtol
    r = compare(y, reference(x, w, args.eps), atol, rtol)
    print(f"{'PASS' if r['ok'] else 'FAIL'}  {args.rows} x {args.hidden} {args.dtype}  "
          f"max_abs={r['max_abs']:.3e}  max_rel={r['max_rel']:.3e}  mismatches={r['mismatches']}  "
          f"non_finite={r['non_finite']}" + (f"  first_bad={r['first_bad']}" if r["first_bad"] else ""))
    return 0 if r["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
