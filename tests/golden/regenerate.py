#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Rewrites the expected files of the golden tests from the current latency-explorer-cli.

Usage: tests/golden/regenerate.py [path/to/latency-explorer-cli] [CASE...]
Without CASE, every folder here with a `commands` file. Each line of `commands` names an expected file and
the arguments that make it; the CLI runs in the case's folder, so the paths it prints are the case's own
relative ones. The diff of a regeneration is reviewed like code (README.md): every changed number is a
changed result. The standard library only.
"""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CLI = os.path.join(HERE, "..", "..", "build", "release", "app", "cli", "latency-explorer-cli")

# The one part of the output that changes from run to run: the import's time in the per-file summary
# ("requests.jsonl: 7 accepted, 5 rejected (jsonl, 63.2 ms)"). tst_golden.cpp masks it the same way.
IMPORT_TIME = re.compile(r"^(.*: \d+ accepted, \d+ rejected \(.*), [^,()]+\)$", re.MULTILINE)


def mask(text):
    return IMPORT_TIME.sub(r"\1, <duration>)", text)


def commands(case_dir):
    """(expected file, arguments) for each line of the case's commands file; # starts a comment."""
    with open(os.path.join(case_dir, "commands"), encoding="utf-8") as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words:
                yield words[0], words[1:]


def regenerate(cli, case_dir):
    for expected, args in commands(case_dir):
        run = subprocess.run([cli] + args, cwd=case_dir, capture_output=True, check=False)
        if run.returncode != 0:
            sys.exit(f"{case_dir}: {' '.join(args)} exited with {run.returncode}:\n{run.stderr.decode()}")
        stream = run.stderr if ".stderr." in expected else run.stdout
        with open(os.path.join(case_dir, expected), "w", encoding="utf-8", newline="") as f:
            f.write(mask(stream.decode("utf-8")))
        print(f"{os.path.basename(case_dir)}/{expected}")


def main(argv):
    cli = os.path.abspath(argv[1]) if len(argv) > 1 else DEFAULT_CLI
    if not os.access(cli, os.X_OK):
        sys.exit(f"regenerate.py: no latency-explorer-cli at '{cli}' (build it, or pass its path)")
    cases = argv[2:] or sorted(d for d in os.listdir(HERE) if os.path.isfile(os.path.join(HERE, d, "commands")))
    for case in cases:
        regenerate(cli, os.path.join(HERE, case))


if __name__ == "__main__":
    main(sys.argv)
