#!/usr/bin/env python3
"""The floor under the site row of `make bench` (SPEC §11): the least any writer must do for the files a pass
rewrote.

Given the files a tagline reload rewrote (their bytes are already in the page cache), it writes each one again the
way the export's rules ask — into a new file beside it, renamed over it, with its `.gz` at zlib's fastest level
beside it likewise, on every core, one syncfs at the end — and prints the wall time as one JSON line. No rendering,
no reading back, no manifest: what is left is compression and the file system's own cost of a new inode per file,
which no implementation of those rules avoids.

usage: site-floor.py --label NAME --workers N FILE... (or --from LIST, one path a line)
"""

import argparse
import json
import multiprocessing
import os
import sys
import time
import zlib


def rewrite(paths):
    """Writes each file and its .gz anew by temporary file and rename; returns the bytes written."""
    written = 0
    for path in paths:
        with open(path, "rb") as source:
            data = source.read()
        compressor = zlib.compressobj(1, zlib.DEFLATED, 31)
        compressed = compressor.compress(data) + compressor.flush()
        for target, payload in ((path, data), (path + ".gz", compressed)):
            temporary = os.path.join(os.path.dirname(target), "." + os.path.basename(target) + ".floor-tmp")
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                os.write(descriptor, payload)
            finally:
                os.close(descriptor)
            os.rename(temporary, target)
            written += len(payload)
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--label", default="site-floor")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--from", dest="listing", help="a file naming one path a line")
    parser.add_argument("files", nargs="*")
    arguments = parser.parse_args()
    files = list(arguments.files)
    if arguments.listing:
        with open(arguments.listing, encoding="utf-8") as listing:
            files += [line.strip() for line in listing if line.strip()]
    if not files:
        sys.exit("site-floor: no files given")
    workers = max(1, arguments.workers)
    chunks = [files[index::workers] for index in range(workers)]
    started = time.monotonic()
    with multiprocessing.Pool(workers) as pool:
        written = sum(pool.map(rewrite, chunks))
    os.sync()
    elapsed = time.monotonic() - started
    source = sum(os.path.getsize(path) for path in files)
    print(json.dumps({"label": arguments.label, "files": len(files), "sourceBytes": source,
                      "writtenBytes": written, "workers": workers, "floorMs": round(elapsed * 1000, 1)}))


if __name__ == "__main__":
    main()
