"""Convert a folder of ASSBIN dumps to AEM models on a Dask cluster (dask.bag + dask.distributed).

    python3 dask_convert.py DUMPS/ MODELS/ [SCHEDULER_ADDRESS]

Without a scheduler address it starts a LocalCluster on this machine; with one (e.g.
tcp://scheduler:8786) the same code runs on a real cluster whose workers have `assbin` installed
(python3-assbin) and see both folders (a shared file system); this file is sent to the workers
(Client.upload_file). Each dump is converted by a worker
process; a dump that fails is reported with its reason, never stopping the others. The results
(plain dicts: source, output, stats, warnings, error) come back to the client by pickling.
"""

from __future__ import annotations

import pathlib
import sys


def convert_one(source: str, root: str, output_root: str) -> dict:
    """Runs on a worker: one dump to one model beside the others under output_root."""
    import assbin

    relative = pathlib.Path(source).relative_to(root)
    output = pathlib.Path(output_root) / relative.parent / (relative.name.removesuffix(".assbin") + ".aem")

    def failed(why: str) -> dict:
        return {"source": source, "output": None, "stats": None, "warnings": [], "error": why}

    # Every failure of one file is that file's result, never the batch's end: a scene refused, a
    # dump that cannot be read, an output that cannot be written (a folder in its place, a full
    # disk), anything else this dump raises.
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        result = assbin.convert(source, output)
        return {"source": source, "output": str(output), "stats": result.stats, "warnings": result.warnings,
                "error": None}
    except assbin.ConvertError as error:
        return failed(f"{error.refusal}: {error}")
    except assbin.ReadError as error:
        return failed(f"{error.code}: {error}")
    except Exception as error:  # noqa: BLE001 (reported, never raised: see above)
        return failed(f"{type(error).__name__}: {error}")


def convert_folder(dumps, models, client=None, partitions=None) -> list:
    """Converts every *.assbin under `dumps` into `models` (same folder structure) on the cluster
    `client` is connected to (the current client when None)."""
    import dask.bag as db

    root = pathlib.Path(dumps).resolve()
    sources = sorted(str(p) for p in root.rglob("*.assbin") if p.is_file())
    if not sources:
        return []
    # Largest first, so that the last tasks are short ones.
    sources.sort(key=lambda p: pathlib.Path(p).stat().st_size, reverse=True)
    bag = db.from_sequence(sources, npartitions=partitions or min(len(sources), 64))
    work = bag.map(convert_one, str(root), str(pathlib.Path(models).resolve()))
    if client is not None:
        # The workers import this file to run convert_one: sent to each, as on a real cluster.
        client.upload_file(__file__)
        return client.compute(work).result()
    return work.compute()


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    from dask.distributed import Client, LocalCluster

    cluster = None if len(argv) == 4 else LocalCluster(processes=True, threads_per_worker=1)
    with Client(argv[3] if len(argv) == 4 else cluster) as client:
        results = convert_folder(argv[1], argv[2], client=client)
    failed = [r for r in results if r["error"]]
    for r in failed:
        print(f"{r['source']}: {r['error']}", file=sys.stderr)
    print(f"{len(results) - len(failed)} converted, {len(failed)} failed")
    if cluster is not None:
        cluster.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
