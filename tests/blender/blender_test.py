"""A real client: every .glb of the corpus's game-ready set (every full dump of at least 20 KiB with
faces in assimp-5.2.5/, as scripts/bench-gltf.sh takes it), written plain and with --quantize (each
dump with its source model's texture folder, TEXTURES.tsv), imported by Debian's Blender
(`blender -b`, its own glTF importer at its defaults) and held by blender_check.py to what the file
means: counts, material settings, spot sizes, and every vertex where Blender draws it at the first
and middle key time of each animation against the test's own skinning.

    python3 blender_test.py ASSBIN_PROGRAM CORPUS_DIR [--module-dir DIR] [--blender PROGRAM] [--keep DIR]

With --module-dir (the folder of the built assbin Python module), what Blender shows is also held to
the dump itself (lights, cameras, spot cones, culling and wrap modes per material, meshes, bones).

Prints one line per difference, then "blender: N passed, M failed" and exits 1 when M > 0. Without
Blender it says SKIPPED and exits 0 — except under CI=true, where CI installs it
(scripts/install-deps.sh) and every check must run.
"""

import concurrent.futures
import csv
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent


def game_ready_set(corpus):
    """The dumps of the set, as paths relative to assimp-5.2.5/."""
    out = []
    with open(corpus / "assimp-5.2.5" / "MANIFEST.tsv", newline="") as manifest:
        for row in csv.DictReader(manifest, delimiter="\t"):
            path = corpus / "assimp-5.2.5" / row["path"]
            if row["variant"] == "full" and int(row["faces_total"] or 0) > 0 and path.stat().st_size >= 20480:
                out.append(row["path"])
    return out


def texture_folders(corpus):
    """Each dump's texture folders in assimp-5.2.5-textures/ (TEXTURES.tsv)."""
    out = {}
    table = corpus / "assimp-5.2.5-textures" / "TEXTURES.tsv"
    if table.exists():
        with open(table, newline="") as rows:
            for row in csv.DictReader(rows, delimiter="\t"):
                folder = str((corpus / "assimp-5.2.5-textures" / row["file_here"]).parent)
                dump = row["dump"].removeprefix("assimp-5.2.5/")
                if folder not in out.setdefault(dump, []):
                    out[dump].append(folder)
    return out


def main(argv):
    program, corpus = argv[1], pathlib.Path(argv[2])
    blender = argv[argv.index("--blender") + 1] if "--blender" in argv else shutil.which("blender")
    if not blender:
        print("SKIPPED: Blender is not installed (Debian: apt-get install blender): no real client imports "
              "the glTF output")
        if os.environ.get("CI") == "true":
            print("blender: 0 passed, 1 failed")
            return 1
        return 0
    if not (corpus / "assimp-5.2.5" / "MANIFEST.tsv").exists():
        print(f"SKIPPED: no corpus at {corpus} (assimp-5.2.5/MANIFEST.tsv)")
        return 0
    dumps = game_ready_set(corpus)
    folders = texture_folders(corpus)
    keep = pathlib.Path(argv[argv.index("--keep") + 1]) if "--keep" in argv else None
    with tempfile.TemporaryDirectory() as work:
        work = keep or pathlib.Path(work)
        failures, outputs = [], []
        module_dir = argv[argv.index("--module-dir") + 1] if "--module-dir" in argv else None
        if module_dir is None:
            print("SKIPPED: the dumps' own facts (no --module-dir: the assbin Python module is not built)")
            if os.environ.get("CI") == "true":
                failures.append("CI: the assbin Python module must be built to hold Blender to the dumps")
        dump_of = {}

        def convert(job):
            dump, variant = job
            out = work / variant / f"{dump.removesuffix('.assbin')}.glb"
            out.parent.mkdir(parents=True, exist_ok=True)
            command = [program, "convert", str(corpus / "assimp-5.2.5" / dump), "-o", str(out), "--quiet"]
            for folder in folders.get(dump, []):
                command += ["--texture-dir", folder]
            if variant == "quantized":
                command.append("--quantize")
            run = subprocess.run(command, capture_output=True, text=True)
            return job, out, run

        jobs = [(dump, variant) for variant in ("plain", "quantized") for dump in dumps]
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for (dump, variant), out, run in pool.map(convert, jobs):
                if run.returncode != 0:
                    failures.append(f"{dump} ({variant}): assbin convert exited {run.returncode}: "
                                    f"{run.stderr.strip()}")
                else:
                    outputs.append(out)
                    dump_of[out] = corpus / "assimp-5.2.5" / dump
        # Blender's embedded Python takes its prefix from the first python3 on PATH: an interpreter of
        # another prefix earlier on PATH (pyenv's) would hide the NumPy of Blender's own (Debian's)
        # Python. Blender's folder goes first, where Debian keeps the python3 it was built with.
        environment = dict(os.environ, PATH=os.path.dirname(os.path.realpath(blender)) + os.pathsep +
                           os.environ.get("PATH", ""))
        # Blender in as many processes as there are cores, each over its share of the files.
        shares = max(1, min(os.cpu_count() or 2, len(outputs)))
        processes = []
        for k in range(shares):
            listing, report = work / f"list_{k}.txt", work / f"report_{k}.jsonl"
            listing.write_text("".join(f"{p}\t{dump_of[p] if module_dir else ''}\n" for p in outputs[k::shares]))
            log = open(work / f"blender_{k}.log", "w")
            processes.append((subprocess.Popen([blender, "-b", "--factory-startup", "--python-exit-code", "1",
                                                "--python", str(HERE / "blender_check.py"), "--",
                                                str(listing), str(report)] + ([module_dir] if module_dir else []),
                                               stdout=log, stderr=subprocess.STDOUT, env=environment),
                              report, log, k))
        seen = set()
        passed = 0
        seconds = 0.0
        shown = {}
        for process, report, log, k in processes:
            code = process.wait()
            log.close()
            lines = report.read_text().splitlines() if report.exists() else []
            for line in lines:
                result = json.loads(line)
                seen.add(result["file"])
                seconds += result["seconds"]
                for key, value in result.get("shown", {}).items():
                    shown[key] = shown.get(key, 0) + value
                name = str(pathlib.Path(result["file"]).relative_to(work))
                if result["differences"]:
                    failures += [f"{name}: {d}" for d in result["differences"]]
                else:
                    passed += 1
            if code != 0:
                tail = (work / f"blender_{k}.log").read_text().strip().splitlines()[-5:]
                failures.append(f"Blender process {k} exited {code}: " + " | ".join(tail))
        for out in outputs:
            if str(out) not in seen:
                failures.append(f"{out.relative_to(work)}: never checked (Blender stopped before it)")
        for line in failures:
            print(f"FAILED   {line}")
        failed_files = len({line.split(":")[0] for line in failures})
        version = subprocess.run([blender, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
        print(f"{version} imported {len(seen)} files ({len(dumps)} dumps, plain and --quantize) in {seconds:.0f} s of "
              "checks; it showed " + ", ".join(f"{value:,} {key}" for key, value in shown.items()) +
              " (poses: skinned and animated scenes compared vertex by vertex)")
        print(f"blender: {passed} passed, {failed_files} failed")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
