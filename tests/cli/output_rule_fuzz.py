"""A file-system fuzzer for the output rule (docs/cli.md, common/output_target.hpp): in a sandbox
holding dumps, images (one named like an output's image), existing outputs of every kind, symlinks
(to a dump, to a folder, to /proc/self/fd/1, dangling), a FIFO, a folder of dumps, an immutable
folder (`ro/`, chattr +i: even root cannot write in it) and a tiny full file system (`full/`, a
tmpfs of 64 KiB filled up) where the machine allows them, it runs random
command lines of every writing verb (convert, dump, render, cmp --html; option orders shuffled, globs
expanded as a shell would, names repeated) and of the Python module's convert and write; it snapshots
every path (type, inode, bytes, link target) before and after, and fails when:

- anything changed that the command did not name as written (its --json `written`: per file for
  convert, for the run for dump, render and cmp; Python's convert and write, which have no report:
  the output they were given and the files beside it by their documented names);
- an input changed (a dump given, a file below a folder given, an image the dumps name);
- a symlink or a non-regular file was replaced (a link must keep its target; a FIFO stays a FIFO);
- a temporary (".NAME.tmp-PID-N") is left, a command crashed (a signal) or hung (20 s);
- an output that could not be written (no space left, a read-only or immutable folder) did not end
  the command with exit 3.

- a file written beside one output by an earlier command of the case was replaced by a conversion
  to another output (two outputs claiming one name: a quarter of the cases, and two fixed ones, run
  two or three commands in one sandbox).

A failing case prints its command line and what broke. Fixed cases (the walk of issue 65) run first.

    python3 output_rule_fuzz.py ASSBIN FIXTURES_DIR [--seconds S] [--seed N] [--python PY --module-dir DIR]

Prints "output rule: N cases, M failed (seed K)" and exits 1 when M > 0.
"""

import hashlib
import json
import os
import pathlib
import random
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time

TEMPORARY = re.compile(r"^\..+\.tmp-\d+-\d+$")


# What a file holds, by its first bytes, and the extensions that name each kind (the rule: an output
# replaces a file of another kind only when its name has the extension of what it writes).
EXTENSIONS = {"dump": (".assbin", ".regress"), "aem": (".aem",), "glb": (".glb",), "gltf": (".gltf",),
              "png": (".png",), "jpeg": (".jpg", ".jpeg"), "html": (".html", ".htm")}


def content_of(data):
    if not data:
        return "empty"
    for kind, magic in (("dump", b"ASSIMP.binary-dump."), ("aem", b"AEM"), ("glb", b"glTF"), ("png", b"\x89PNG"),
                        ("jpeg", b"\xff\xd8\xff")):
        if data.startswith(magic):
            return kind
    text = data[:64].lstrip()
    if text.startswith(b"{") and b'"asset"' in data[:64]:
        return "gltf"
    if text.lower().startswith(b"<!doctype html") or text.startswith(b"<html"):
        return "html"
    return "other"


def snapshot(root):
    """Every path below root (links not followed): (kind, inode, content hash or link target)."""
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = pathlib.Path(folder) / name
            info = os.lstat(path)
            relative = str(path.relative_to(root))
            if stat.S_ISLNK(info.st_mode):
                out[relative] = ("link", info.st_ino, os.readlink(path))
            elif stat.S_ISREG(info.st_mode):
                data = path.read_bytes()
                out[relative] = ("file", info.st_ino, hashlib.sha1(data).hexdigest(), content_of(data))
            elif stat.S_ISDIR(info.st_mode):
                out[relative] = ("folder", info.st_ino, None)
            else:
                out[relative] = ("fifo" if stat.S_ISFIFO(info.st_mode) else "other", info.st_ino, None)
        dirs[:] = [d for d in dirs if not os.path.islink(pathlib.Path(folder) / d)]
    return out


class FifoDrain:
    """Holds every FIFO of the sandbox open for reading and drains it, so a writer never blocks."""

    def __init__(self, fifos):
        self.stop = False
        self.fds = [os.open(f, os.O_RDONLY | os.O_NONBLOCK) for f in fifos]
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop:
            for fd in self.fds:
                try:
                    while os.read(fd, 1 << 16):
                        pass
                except BlockingIOError:
                    pass
            time.sleep(0.002)

    def close(self):
        self.stop = True
        self.thread.join()
        for fd in self.fds:
            os.close(fd)


class Sandbox:
    """The files every case starts from, made once (real outputs of each kind) and copied per case."""

    def __init__(self, assbin, fixtures, work):
        self.assbin, self.template = assbin, work / "template"
        t = self.template
        (t / "sub").mkdir(parents=True)
        shutil.copy(fixtures / "assimp-5.2.5/BLEND__BlenderDefault_250.blend.assbin", t / "d1.assbin")
        shutil.copy(fixtures / "assimp-5.2.5/3DS__cube_with_diffuse_texture.3DS.assbin", t / "cube.assbin")
        shutil.copy(fixtures / "assimp-5.2.5/SMD__triangle.smd.assbin", t / "sub/d3.assbin")
        # Its texture is embedded: a 2024 AEM model and a .gltf of it both write an image beside them.
        shutil.copy(fixtures / "assimp-5.2.5/glTF2__BoxTextured-glTF-Embedded__BoxTextured.gltf.assbin", t / "emb.assbin")
        shutil.copy(fixtures / "textures/3DS/test.png", t / "TEST.PNG")
        # A dump naming "ab.0.png", the name `-o ab.gltf` gives its first image, with that image beside it.
        data = (t / "cube.assbin").read_bytes().replace(b"TEST.PNG", b"ab.0.png")
        (t / "ab.assbin").write_bytes(data)
        shutil.copy(t / "TEST.PNG", t / "ab.0.png")
        for name, args in (("old.aem", []), ("old.glb", []), ("old.gltf", [])):
            subprocess.run([assbin, "convert", str(t / "d1.assbin"), "-o", str(t / name), *args, "--quiet"],
                           check=True, capture_output=True)
        (t / "old.html").write_text("<!DOCTYPE html><html><body>a report</body></html>")
        (t / "notes.txt").write_text("a user's notes\n")
        (t / "old.png").write_bytes((t / "TEST.PNG").read_bytes())
        os.symlink("d1.assbin", t / "link_to_dump.assbin")
        os.symlink("sub", t / "link_to_folder")
        os.symlink("/proc/self/fd/1", t / "link_to_stdout")
        os.symlink("nowhere.aem", t / "dangling.aem")
        self.dumps = ["d1.assbin", "cube.assbin", "ab.assbin", "sub/d3.assbin", "link_to_dump.assbin", "emb.assbin"]
        self.images = ["TEST.PNG", "ab.0.png"]

        self.immutable = self.full = None  # what the machine allows, said by main()

    def probe(self, work):
        """Whether an immutable folder and a tiny tmpfs can be made here (root on a file system with
        attributes; mount allowed); each None when it can, else why not."""
        trial = work / "probe"
        trial.mkdir()
        run = subprocess.run(["chattr", "+i", str(trial)], capture_output=True, text=True)
        self.immutable = None if run.returncode == 0 else (run.stderr.strip() or "chattr failed")
        subprocess.run(["chattr", "-i", str(trial)], capture_output=True)
        run = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(trial)], capture_output=True,
                             text=True)
        self.full = None if run.returncode == 0 else (run.stderr.strip() or "mount failed")
        subprocess.run(["umount", str(trial)], capture_output=True)
        trial.rmdir()

    def fresh(self, where):
        shutil.copytree(self.template, where, symlinks=True)
        os.mkfifo(where / "pipe.fifo")  # copytree copies no FIFO
        if self.immutable is None:
            (where / "ro").mkdir()
            (where / "ro/kept.aem").write_bytes((where / "old.aem").read_bytes())
            subprocess.run(["chattr", "+i", str(where / "ro")], check=True)
        if self.full is None:
            (where / "full").mkdir()
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where / "full")], check=True)
            filler = os.open(where / "full/filler", os.O_WRONLY | os.O_CREAT)  # fill it: every write then fails
            try:
                while os.write(filler, b"\0" * 4096):
                    pass
            except OSError:
                pass
            os.close(filler)
        return where

    def remove(self, where):
        if (where / "ro").is_dir():
            subprocess.run(["chattr", "-i", str(where / "ro")], capture_output=True)
        if (where / "full").is_dir():
            subprocess.run(["umount", str(where / "full")], capture_output=True)
        shutil.rmtree(where)


def names_in(sandbox):
    return sorted(str(p.relative_to(sandbox)) for p in sandbox.rglob("*"))


def random_output(rng, sandbox, extensions):
    existing = [n for n in names_in(sandbox) if not n.startswith("sub/") or rng.random() < 0.3]
    fresh = [f"new{rng.choice(extensions)}", "new", "-", "/dev/stdout", "sub/new" + rng.choice(extensions)]
    if (sandbox / "ro").is_dir():
        fresh += ["ro/new" + rng.choice(extensions), "ro/deeper/new" + rng.choice(extensions)]
    if (sandbox / "full").is_dir():
        fresh += ["full/new" + rng.choice(extensions), "full/deeper/new" + rng.choice(extensions)]
    return rng.choice(existing + fresh + ["link_to_stdout", "dangling.aem", "pipe.fifo"])


def random_case(rng, sandbox, python):
    """A command line (a list), what it declares as reads, and how to know what it wrote."""
    verb = rng.choices(["convert", "dump", "cmp", "render", "python"], weights=[60, 15, 12, 5, 8 if python else 0])[0]
    dumps = ["d1.assbin", "cube.assbin", "ab.assbin", "sub/d3.assbin", "link_to_dump.assbin", "emb.assbin"]
    glob = sorted(str(p.relative_to(sandbox)) for p in sandbox.glob("*.assbin"))  # the shell's `*.assbin`
    if verb == "convert":
        inputs = rng.choice([[rng.choice(dumps)], rng.sample(dumps, 2), glob, ["sub"], ["link_to_folder"],
                             [rng.choice(dumps)] * 2])
        args = ["convert", *inputs, "--json"]
        if rng.random() < 0.6 or len(inputs) > 1:
            if rng.random() < 0.7 and len(inputs) == 1 and inputs[0] not in ("sub", "link_to_folder"):
                args += ["-o", random_output(rng, sandbox, [".aem", ".glb", ".gltf"])]
            else:
                folders = ["sub", "out", "link_to_folder", ".", "sub/deeper"]
                folders += [f for f in ("ro", "full") if (sandbox / f).is_dir()]
                args += ["--out-dir", rng.choice(folders)]
        options = [["--format", rng.choice(["aem", "glb", "gltf"])], ["--skip-existing"], ["--texture-dir", "."],
                   ["--quantize"], ["--layout", "2025"], ["--jobs", "2"]]
        for option in rng.sample(options, rng.randint(0, 3)):
            args += option
        return verb, args, inputs
    if verb == "dump":
        source = rng.choice(dumps + ["sub", "."])
        return verb, ["dump", source, random_output(rng, sandbox, [".assbin"]), "--json"], [source]
    if verb == "cmp":
        a, b = rng.choice(dumps), rng.choice(dumps)
        order = [[a, b, "--html", random_output(rng, sandbox, [".html"])],
                 ["--html", random_output(rng, sandbox, [".html"]), a, b]]
        return verb, ["cmp", *rng.choice(order), "--json"], [a, b]
    if verb == "render":
        source = rng.choice(dumps)
        if rng.random() < 0.5:
            return verb, ["render", source, "-o", random_output(rng, sandbox, [".png"]), "--size", "16x16", "--json"], \
                [source]
        return verb, ["render", "--sheet", random_output(rng, sandbox, [".png"]), *glob, "--size", "16x16", "--json"], \
            glob
    source = rng.choice(dumps)
    destination = random_output(rng, sandbox, [".aem", ".glb", ".assbin"])
    if rng.random() < 0.5:
        code = f"import assbin; assbin.convert({source!r}, {destination!r})"
        return verb, [python, "-c", code], [source]
    # write() reads nothing from disk: the scene is in memory, and rewriting its own file is allowed.
    code = f"import assbin; assbin.write(assbin.read({source!r}), {destination!r})"
    return verb, [python, "-c", code], []


def documented_outputs(verb, args, sandbox):
    """What Python's convert and write, which print no report, write: the output they were given and
    the files beside it by their documented names."""
    if verb == "python":
        destination = re.findall(r"'([^']*)'\)$", args[2])[0]
        if "convert(" not in args[2]:
            return [destination]
        # convert's files beside a .gltf (STEM.bin, STEM.K.png/jpg) or a 2024 model (STEM_K.png/jpg)
        stem = re.escape(str(pathlib.Path(destination).with_suffix("")))
        return [destination, f"re:{stem}\\.bin|{stem}[._]\\d+\\.(png|jpg)"]
    return []


def resolve(sandbox, name):
    """A path relative to the sandbox, its symlinks followed (for an output written through a link)."""
    try:
        real = os.path.realpath(sandbox / name)
        return os.path.relpath(real, os.path.realpath(sandbox))
    except ValueError:
        return None


def check_case(verb, args, reads, sandbox, before, after, run, claimed):
    """What broke; `claimed` (path -> the output it was written beside, by the commands before this
    one in the same sandbox) is updated with what this command wrote."""
    broken = []
    if run.returncode < 0:
        broken.append(f"crashed with signal {-run.returncode}")
    elif run.returncode not in (0, 1, 2, 3):
        broken.append(f"exit code {run.returncode}")
    declared = set()
    if verb != "python":
        # The report is on stdout, or on stderr when an output is the standard output.
        match = None
        for report in (run.stdout, run.stderr):
            match = match or re.search(r"^\{\n.*^\}\s*$", report, re.S | re.M)
        if match is None and run.returncode in (0, 1):
            broken.append("no --json report")
        elif match is not None:
            document = json.loads(match.group(0))
            declared.update(document.get("written", []))  # dump, render, cmp: the run's
            for record in document.get("files", []):  # convert: per file
                declared.update(record.get("written", []))
                owner = resolve(sandbox, record["output"])
                for name in record.get("written", []):
                    target = resolve(sandbox, name)
                    if target is None or pathlib.Path(name).name == ".assbin-convert.log":
                        continue  # the record is every output's, appended to
                    if target in claimed and claimed[target] != owner and target in before and \
                            before.get(target) != after.get(target):
                        broken.append(f"{target}, written beside {claimed[target]} before, was replaced by the "
                                      f"conversion to {owner}: two outputs claim one name")
                    claimed[target] = owner
    else:
        declared.update(documented_outputs(verb, args, sandbox))
    cannot_write = re.search(r"No space left|Read-only file system|Operation not permitted", run.stderr + run.stdout)
    if cannot_write and verb != "python" and run.returncode not in (0, 3) and run.returncode >= 0:
        broken.append(f"an output could not be written ({cannot_write.group(0)}) and the exit code is "
                      f"{run.returncode}, not 3")
    if cannot_write and verb == "python" and run.returncode != 0:
        # Python's convert and write raise OSError (a subclass) with errno set, as open() does.
        last = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ""
        if not re.match(r"(OSError|PermissionError|FileNotFoundError): \[Errno \d+\]", last):
            broken.append(f"an output could not be written and Python raised no OSError with errno: {last}")
    allowed = set()
    patterns = [re.compile(name[3:]) for name in declared if name.startswith("re:")]
    declared = {name for name in declared if not name.startswith("re:")}
    for name in declared:
        if name.endswith("/"):
            allowed.add(name)
            target = resolve(sandbox, name.rstrip("/"))
            if target:
                allowed.add(target + "/")
            continue
        allowed.add(os.path.normpath(name))
        target = resolve(sandbox, name)
        if target:
            allowed.add(target)
    # The images a dump read names are inputs too (cube.assbin names TEST.PNG, ab.assbin ab.0.png).
    images = {"cube.assbin": "TEST.PNG", "ab.assbin": "ab.0.png"}
    read_dumps = set()
    for name in reads:
        target = resolve(sandbox, name)
        if target and (sandbox / target).is_dir():
            read_dumps.update(k for k in before if k.startswith(target + "/"))
        elif target:
            read_dumps.add(target)
    protected = set()
    for name in reads + [image for dump, image in images.items() if dump in read_dumps]:
        target = resolve(sandbox, name)
        if target is None:
            continue
        if (sandbox / target).is_dir():  # what a verb reads in a folder: its dumps (and dump's empty markers)
            protected.update(k for k in before if k.startswith(target + "/") and before[k][0] == "file"
                             and before[k][3] in ("dump", "empty"))
        else:
            protected.add(target)
    for path in sorted(set(before) | set(after)):
        was, now = before.get(path), after.get(path)
        if was == now:
            continue
        if now is not None and TEMPORARY.match(pathlib.Path(path).name):
            broken.append(f"a temporary is left: {path}")
            continue
        if was is not None and was[0] in ("link", "fifo", "other"):
            broken.append(f"{was[0]} {path} was replaced or removed (now {now})")
            continue
        if path in protected:
            broken.append(f"the input {path} changed")
            continue
        if was is not None and now is None:
            broken.append(f"{path} was removed")
            continue
        if was is not None and was[0] == "folder":
            continue  # a folder's own entry: what changed inside it is judged path by path
        if was is not None and now is not None and was[0] == now[0] == "file" and was[3] not in ("empty", now[3]) \
                and not path.lower().endswith(EXTENSIONS.get(now[3], ())):
            broken.append(f"{path} held {was[3]} and now holds {now[3]}, though its name is not a {now[3]}'s")
            continue
        if path not in allowed and not any(path.startswith(a) for a in allowed if a.endswith("/")) and not (
                now and now[0] == "folder") and not any(p.fullmatch(path) for p in patterns):
            broken.append(f"{path} {'changed' if was else 'was created'}, and the command named no such output")
    return broken


FIXED_CASES = [
    # One model to .gltf and to .aem in one folder, both orders, then again with --skip-existing: each
    # format's images are its own (NAME.K.png beside a .gltf, NAME_K.png beside a 2024 model).
    [("convert", ["convert", "emb.assbin", "-o", "both.gltf", "--json"], ["emb.assbin"]),
     ("convert", ["convert", "emb.assbin", "-o", "both.aem", "--json"], ["emb.assbin"]),
     ("convert", ["convert", "emb.assbin", "-o", "both.gltf", "--skip-existing", "--json"], ["emb.assbin"])],
    [("convert", ["convert", "emb.assbin", "-o", "both.aem", "--skip-existing", "--json"], ["emb.assbin"]),
     ("convert", ["convert", "emb.assbin", "-o", "both.gltf", "--skip-existing", "--json"], ["emb.assbin"]),
     ("convert", ["convert", "emb.assbin", "-o", "both.aem", "--skip-existing", "--json"], ["emb.assbin"])],
    ("render", ["render", "--sheet", "cube.assbin", "d1.assbin", "ab.assbin", "--size", "16x16", "--json"],
     ["cube.assbin", "d1.assbin", "ab.assbin"]),
    ("render", ["render", "d1.assbin", "-o", "cube.assbin", "--size", "16x16", "--json"], ["d1.assbin"]),
    ("cmp", ["cmp", "--html", "cube.assbin", "d1.assbin", "ab.assbin", "--json"], ["d1.assbin", "ab.assbin"]),
    ("convert", ["convert", "d1.assbin", "-o", "/dev/stdout", "--format", "glb", "--json"], ["d1.assbin"]),
    ("convert", ["convert", "d1.assbin", "-o", "-", "--format", "glb", "--json"], ["d1.assbin"]),
    ("convert", ["convert", "ab.assbin", "-o", "ab.gltf", "--json"], ["ab.assbin"]),
    ("convert", ["convert", "d1.assbin", "-o", "notes.txt", "--json"], ["d1.assbin"]),
    ("dump", ["dump", "d1.assbin", "-", "--json"], ["d1.assbin"]),
    ("dump", ["dump", "d1.assbin", "old.png", "--json"], ["d1.assbin"]),
    ("dump", ["dump", ".", "sub/again", "--json"], ["."]),
    # a full disk and an immutable folder (where the machine has them): exit 3, nothing left behind
    ("convert", ["convert", "d1.assbin", "cube.assbin", "--out-dir", "full", "--format", "gltf", "--json"],
     ["d1.assbin", "cube.assbin"]),
    ("convert", ["convert", "d1.assbin", "-o", "ro/sub/x.glb", "--json"], ["d1.assbin"]),
    ("dump", ["dump", "sub", "full/dumps", "--json"], ["sub"]),
    ("render", ["render", "d1.assbin", "-o", "ro/x.png", "--size", "16x16", "--json"], ["d1.assbin"]),
]


def main(argv):
    assbin = os.path.realpath(argv[1])
    fixtures = pathlib.Path(argv[2])
    seconds = float(argv[argv.index("--seconds") + 1]) if "--seconds" in argv else 60.0
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else int(time.time())
    python = argv[argv.index("--python") + 1] if "--python" in argv else None
    module_dir = argv[argv.index("--module-dir") + 1] if "--module-dir" in argv else None
    if not python or not module_dir:
        print("SKIPPED: Python cases (no --python and --module-dir: the module is not built)")
        python = None
    rng = random.Random(seed)
    environment = dict(os.environ, PYTHONPATH=module_dir or "")
    cases = failed = 0
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        template = Sandbox(assbin, fixtures, work)
        template.probe(work)
        if template.immutable:
            print(f"SKIPPED: immutable-folder cases (chattr +i cannot be used here: {template.immutable})")
        if template.full:
            print(f"SKIPPED: full-file-system cases (a tmpfs cannot be mounted here: {template.full})")
        deadline = time.monotonic() + seconds
        k = 0
        while True:
            if k < len(FIXED_CASES):
                fixed = FIXED_CASES[k]
                commands = fixed if isinstance(fixed, list) else [fixed]
            elif time.monotonic() > deadline:
                break
            else:
                commands = None
            sandbox = template.fresh(work / f"case{k}")
            if commands is None:
                # One command, or (a quarter of the cases) two in the same sandbox: the second judged
                # on what the first left, as a user's next command would be.
                commands = [random_case(rng, sandbox, python) for _ in range(2 if rng.random() < 0.25 else 1)]
            k += 1
            claimed = {}
            for step, (verb, args, reads) in enumerate(commands):
                before = snapshot(sandbox)
                drain = FifoDrain([sandbox / "pipe.fifo"])
                command = args if verb == "python" else [assbin, *args]
                try:
                    run = subprocess.run(command, cwd=sandbox, capture_output=True, timeout=20, env=environment)
                    run.stdout = run.stdout.decode("utf-8", "replace")
                    run.stderr = run.stderr.decode("utf-8", "replace")
                    broken = check_case(verb, args, reads, sandbox, before, snapshot(sandbox), run, claimed)
                except subprocess.TimeoutExpired:
                    broken = ["hung (20 s)"]
                drain.close()
                cases += 1
                if broken:
                    failed += 1
                    shown = " ".join(args if verb == "python" else ["assbin", *args])
                    earlier = " (after: " + " ; ".join(" ".join(c[1]) for c in commands[:step]) + ")" if step else ""
                    print(f"FAILED   case {k - 1}.{step} (seed {seed}): {shown}{earlier}")
                    for line in broken[:6]:
                        print(f"         {line}")
            template.remove(sandbox)
    print(f"output rule: {cases} cases, {failed} failed (seed {seed}; {len(FIXED_CASES)} fixed cases first)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
