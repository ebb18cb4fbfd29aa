#!/usr/bin/env python3
"""Every command the README shows runs as shown, and prints what the README says it prints.

    readme_commands_test.py README.md PROGRAM SOURCE_DIR

Each ```sh block's lines that start with `build/bin/assbin` (or `head -c`, which makes an input from
a bundled file) are run with bash, in order, in a
scratch folder that holds `tests` (the checkout's bundled files) and `build/bin/assbin` (PROGRAM:
the build under test, so a sanitizer build runs them too). A command exits 0 unless its line ends
with the comment `# exits N`. When a ```text block follows a ```sh block, every line of it other
than `...` must be a line of what that block's commands printed (stdout and stderr), in order.
"""
import os
import re
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(\w*)\s*$")


def blocks(readme):
    """(language, lines, first line number) of every fenced block, in order."""
    found, language, body, start = [], None, [], 0
    for number, line in enumerate(readme.splitlines(), 1):
        match = FENCE.match(line)
        if language is None and match:
            language, body, start = match.group(1), [], number + 1
        elif language is not None and line.strip() == "```":
            found.append((language, body, start))
            language = None
        elif language is not None:
            body.append(line)
    return found


def main():
    readme_path, program, source = sys.argv[1:4]
    with open(readme_path, encoding="utf-8") as readme:
        found = blocks(readme.read())
    failures, commands = 0, 0
    with tempfile.TemporaryDirectory() as scratch:
        os.makedirs(os.path.join(scratch, "build", "bin"))
        os.symlink(os.path.abspath(program), os.path.join(scratch, "build", "bin", "assbin"))
        os.symlink(os.path.join(os.path.abspath(source), "tests"), os.path.join(scratch, "tests"))
        for k, (language, body, start) in enumerate(found):
            if language != "sh":
                continue
            printed = []
            for offset, line in enumerate(body):
                if line.startswith("head -c "):  # making an input from a bundled file (a dump cut short)
                    subprocess.run(["bash", "-c", line], cwd=scratch, check=True)
                    continue
                if not line.startswith("build/bin/assbin"):
                    continue
                commands += 1
                expected_status = 0
                status_note = re.search(r"# exits (\d+)", line)
                if status_note:
                    expected_status = int(status_note.group(1))
                run = subprocess.run(["bash", "-c", line], cwd=scratch, capture_output=True, text=True)
                printed += (run.stdout + run.stderr).splitlines()
                where = f"README.md:{start + offset}"
                if run.returncode != expected_status:
                    failures += 1
                    print(f"FAIL: {where}: exited {run.returncode}, expected {expected_status}: {line}\n"
                          f"{run.stdout}{run.stderr}")
                else:
                    print(f"ok: {where}: {line}")
            if k + 1 < len(found) and found[k + 1][0] == "text":
                shown, shown_start = found[k + 1][1], found[k + 1][2]
                position = 0
                stripped = [line.rstrip() for line in printed]
                for offset, line in enumerate(shown):
                    if line.strip() == "...":
                        continue
                    try:
                        position = stripped.index(line.rstrip(), position) + 1
                    except ValueError:
                        failures += 1
                        print(f"FAIL: README.md:{shown_start + offset}: not printed (in this order) by the "
                              f"commands above it: {line}")
    print(f"{commands} README commands run; failures: {failures}")
    if commands < 10:
        print("FAIL: fewer than 10 commands found: the README's ```sh blocks were not read")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
