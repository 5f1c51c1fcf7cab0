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

Protocol: JSON lines {"id": ..., "dir": PATH} on stdin; one JSON line per input on stdout:
{"id", "found", "user_data_b64", "vendor_data_b64", "metadata", "network_config",
 "network_disabled", "seeded": {"user_data_b64", "vendor_data_b64", "metadata"}, "error"}.
Values are encoded type-faithfully with ../shared/oracle/ci_oracle.py's encode().
Usage: scripts/nocloud_oracle.py [--release bookworm|trixie] < dirs.jsonl
"""
import argparse
import base64
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


def b64(v):
    if v is None:
        return None
    if isinstance(v, str):
        v = v.encode("utf-8", "surrogateescape")
    return base64.b64encode(bytes(v)).decode("ascii")


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
    try:
        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            case = json.loads(line)
            res = {"id": case.get("id")}
            try:
                cloud_dir = os.path.join(work, "cloud")
                shutil.rmtree(cloud_dir, ignore_errors=True)
                os.makedirs(os.path.join(cloud_dir, "seed"))
                os.symlink(os.path.abspath(case["dir"]), os.path.join(cloud_dir, "seed", "nocloud"))
                paths = helpers.Paths({"cloud_dir": cloud_dir, "run_dir": os.path.join(work, "run")})
                distro = distros.fetch("debian")("debian", {}, paths)
                ds = DataSourceNoCloud.DataSourceNoCloud(sys_cfg, distro, paths)
                res["found"] = bool(ds._get_data())
                if res["found"]:
                    ncfg = ds.network_config
                    res["user_data_b64"] = b64(ds.userdata_raw)
                    res["vendor_data_b64"] = b64(ds.vendordata_raw)
                    res["metadata"] = oracle.encode(ds.metadata)
                    res["network_config"] = oracle.encode(ncfg)
                    # 22.4: _remove_top_level_network_key; 25.1: _get_network_key_contents.
                    unwrap = getattr(stages.Init, "_remove_top_level_network_key", None) or \
                        stages.Init._get_network_key_contents
                    unwrapped = unwrap(None, ncfg)
                    res["network_disabled"] = bool(net.is_disabled_cfg(unwrapped))
                seeded = util.read_seeded("file://" + os.path.abspath(case["dir"]) + "/", timeout=None)
                md, ud, vd = seeded[0], seeded[1], seeded[2]
                res["seeded"] = {
                    "user_data_b64": b64(ud),
                    "vendor_data_b64": b64(vd),
                    "metadata": oracle.encode(md),
                }
            except Exception:  # reported, compared as a failure on the other side
                res["error"] = traceback.format_exc(limit=3)
            out.write(json.dumps(res, sort_keys=True) + "\n")
            out.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
