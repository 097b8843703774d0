"""Join weights files into one network that plays as they do together (the mean of their logits).

    python tools/ensemble_networks.py --out joined.npz A.npz B.npz [C.npz ...]

writes a weights file that any network bot plays (``zero:joined.npz``,
``net:joined.npz``): its trunk is the files' trunks side by side and its heads
read their mean (:func:`oriflamme.bots.net.ensemble`), so a decision costs about
the files' forward passes together. The file's ``meta`` names the digests of the
networks it joined. Files whose trunks are not equally deep, or with a
heuristic hint, are refused. Not run in CI (a test runs it on two small files).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from oriflamme.bots.net import WeightsError, ensemble, load, save


def join(files: list[Path], out: Path) -> tuple[int, ...]:
    """Write the ensemble of ``files`` to ``out``; its trunk's widths. Nothing is written on error."""
    if out.resolve() in {f.resolve() for f in files}:
        raise WeightsError(f"--out {out} is one of the networks to join; write the ensemble elsewhere")
    joined = ensemble([load(f) for f in files])
    joined.meta["ensemble_files"] = [f.name for f in files]
    save(joined, out)
    return joined.hidden


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="weights files, equally deep, without a hint")
    parser.add_argument("--out", required=True, type=Path, help="the weights file to write")
    args = parser.parse_args(argv)
    try:
        hidden = join(args.files, args.out)
    except (WeightsError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.out}: {len(args.files)} networks joined, trunk {list(hidden)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
