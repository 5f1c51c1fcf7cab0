#!/usr/bin/env python3
"""Read NoCloud seed directories with cloud-init's own NoCloud datasource code.

For each seed directory (the `dir` form of `cloudfold seed`, or the files extracted from a
seed image by xorriso/mtools), this runs the real, extracted cloud-init (22.4.2 for
--release bookworm, 25.1.4 for trixie), never a re-implementation:

  * DataSourceNoCloud._get_data() with the directory as its seed dir
    (<cloud_dir>/seed/nocloud, read with util.pathprefix2dict, meta-data and network-config
    loaded by _merge_new_seed), then the datasource's userdata_raw, metadata, vendordata_raw
    and network_config; whether networking is disabled by it
    (Init._remove_top_level_network_key or, in 25.1, _get_network_key_contents, then
    net.is_disabled_cfg, as stages.py decides);
  * util.read_seeded("file://<dir>/"), the `ds=nocloud;s=file:///path/` reader.

Device scanning is off (fs_label: null), so no blkid/mount runs.

Protocol: JSON lines {"id": ..., "dir": PATH, "dump": DIR} on stdin; one JSON line per input on
stdout: {"id", "found", "metadata", "network_config", "network_disabled", "seeded": {"metadata"},
"read": {NAME: {"type": "bytes"|"str", "len": N} or null}, "error"}, where NAME is
ds.user-data, ds.vendor-data (the datasource's userdata_raw, vendordata_raw), seeded.user-data,
seeded.vendor-data (read_seeded's); each value read is written byte for byte to DUMP/NAME (a str
as UTF-8 with surrogateescape), for the caller to compare: payloads of up to 2 MiB are not
worth base64 in JSON. Other values are encoded type-faithfully with
../shared/oracle/ci_oracle.py's encode().
Usage: scripts/nocloud_oracle.py [--release bookworm|trixie] < dirs.jsonl
"""
import argparse
import importlib.util
import io
import json
import os
import shutil
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("CLOUDFOLD_SHARED", os.path.join(HERE, "..", "..", "shared"))
ORACLE = os.path.normpath(os.path.join(SHARED, "oracle", "ci_oracle.py"))


def load_oracle():
    spec = importlib.util.spec_from_file_location("ci_oracle", os.environ.get("CLOUDFOLD_ORACLE", ORACLE))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def dump(read, dump_dir, name, v):
    """Write a value cloud-init read to DUMP/NAME; note its type and length."""
    if v is None:
        read[name] = None
        return
    kind = "str" if isinstance(v, str) else "bytes"
    raw = v.encode("utf-8", "surrogateescape") if kind == "str" else bytes(v)
    with open(os.path.join(dump_dir, name), "wb") as f:
        f.write(raw)
    read[name] = {"type": kind, "len": len(raw)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", default="bookworm")
    opts = ap.parse_args()
    oracle = load_oracle()
    _root, dp = oracle.resolve_root(argparse.Namespace(ci_root=None, release=opts.release))
    oracle.import_cloudinit(dp)
    from cloudinit import distros, helpers, net, stages, util
    from cloudinit.sources import DataSourceNoCloud

    out = sys.stdout
    sys.stdout = io.StringIO()  # nothing cloud-init prints reaches the protocol
    sys_cfg = {"datasource": {"NoCloud": {"fs_label": None}}}
    work = tempfile.mkdtemp(prefix="cloudfold-nocloud-")
    cloud_dir = os.path.join(work, "cloud")
    seed_link = os.path.join(cloud_dir, "seed", "nocloud")
    os.makedirs(os.path.dirname(seed_link))
    paths = helpers.Paths({"cloud_dir": cloud_dir, "run_dir": os.path.join(work, "run")})
    distro = distros.fetch("debian")("debian", {}, paths)
    # 22.4: _remove_top_level_network_key; 25.1: _get_network_key_contents.
    unwrap = getattr(stages.Init, "_remove_top_level_network_key", None) or \
        stages.Init._get_network_key_contents
    try:
        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            case = json.loads(line)
            res = {"id": case.get("id")}
            try:
                if os.path.lexists(seed_link):
                    os.unlink(seed_link)
                os.symlink(os.path.abspath(case["dir"]), seed_link)
                os.makedirs(case["dump"], exist_ok=True)
                read = res["read"] = {}
                ds = DataSourceNoCloud.DataSourceNoCloud(sys_cfg, distro, paths)
                res["found"] = bool(ds._get_data())
                if res["found"]:
                    ncfg = ds.network_config
                    dump(read, case["dump"], "ds.user-data", ds.userdata_raw)
                    dump(read, case["dump"], "ds.vendor-data", ds.vendordata_raw)
                    res["metadata"] = oracle.encode(ds.metadata)
                    res["network_config"] = oracle.encode(ncfg)
                    res["network_disabled"] = bool(net.is_disabled_cfg(unwrap(None, ncfg)))
                seeded = util.read_seeded("file://" + os.path.abspath(case["dir"]) + "/", timeout=None)
                md, ud, vd = seeded[0], seeded[1], seeded[2]
                dump(read, case["dump"], "seeded.user-data", ud)
                dump(read, case["dump"], "seeded.vendor-data", vd)
                res["seeded"] = {"metadata": oracle.encode(md)}
            except Exception:  # reported, compared as a failure on the other side
                res["error"] = traceback.format_exc(limit=3)
            out.write(json.dumps(res, sort_keys=True) + "\n")
            out.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
