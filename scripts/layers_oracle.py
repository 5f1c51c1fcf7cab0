#!/usr/bin/env python3
"""Layered configuration oracle: run the extracted cloud-init's own Init /
ConfigMerger / _consume_vendordata / Modules over a throw-away root holding
the layers, and print the config its modules see.

Reads JSON lines on stdin, one case each:
  {"id": ..., "etc": [[relpath, b64 | null (a directory)], ...],
   "run_cloud_cfg": b64|null, "env": b64|null, "cmdline": str|null,
   "ds": b64|null (YAML of the datasource's config object),
   "user": b64|null, "vendor": b64|null, "vendor2": b64|null,
   "instance_data": str|null}
and writes one JSON line per case:
  {"id", "modules": <typed JSON, key order kept>, "init": <Init.cfg>,
   "combined": <combined-cloud-config.json text (25.1) | null>,
   "init_stage_error": str|null, "error": str|null, "warnings": [...],
   "ds_reads": int}

The boot it runs (first boot of a new instance, as cmd/main.py's main_init
then main_modules do): Init.read_cfg(); the datasource found (Init._reset);
Init.cfg read (network config); instancify(); Init.cfg; update();
consume_data(PER_INSTANCE) (an exception there ends the init stage, as
main_init's try does); then a config stage: a fresh Init, read_cfg(), the
same datasource, Modules(init).cfg. "modules" is that config.

The root is the real one, in a private mount namespace (the script re-runs
itself under `unshare -m`): /etc, /var and /run are overlays on the
machine's own, so /etc/cloud, /var/lib/cloud, /var/log and /run/cloud-init are the
case's and nothing outside the namespace changes. cloud-init reads its
absolute paths unpatched. Only the inputs are provided from outside:
DEBUG_PROC_CMDLINE (cloud-init's own override of /proc/cmdline), CLOUD_CFG,
and a datasource object whose get_config_obj() returns one dict (as Azure's
self.cfg does) and whose user/vendor data are the case's.

Usage: scripts/layers_oracle.py --release bookworm|trixie < cases.jsonl
"""
import argparse
import base64
import io
import json
import logging
import os
import shutil
import sys

from oracle_root import CASE_DIRS, log_only_to, enter_namespace, use_release

HERE = os.path.dirname(os.path.abspath(__file__))
NS_FLAG = "CLOUDFOLD_LAYERS_NS"


def encode_value(oracle_encode, v):
    return oracle_encode(v, False)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", default="bookworm")
    opts = ap.parse_args()
    tmp = enter_namespace(NS_FLAG, "cloudfold-layers-")
    use_release(opts.release)
    os.chdir("/")
    # The oracle's type-faithful encoder (never copied into this repo).
    import importlib.util
    oracle_path = os.environ.get("CLOUDFOLD_ORACLE", os.path.normpath(
        os.path.join(HERE, "..", "..", "shared", "oracle", "ci_oracle.py")))
    spec = importlib.util.spec_from_file_location("ci_oracle", oracle_path)
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)

    from cloudinit import sources, stages
    from cloudinit.config.modules import Modules
    from cloudinit.settings import PER_INSTANCE

    class Capture(logging.Handler):
        def __init__(self):
            super().__init__(level=logging.WARNING)
            self.lines = []

        def emit(self, record):
            try:
                self.lines.append("%s: %s" % (record.levelname, record.getMessage()))
            except Exception as e:  # pragma: no cover
                self.lines.append("unformattable: %r" % e)

    cap = Capture()
    log_only_to(cap, logging.WARNING)

    class LayersDS(sources.DataSource):
        dsname = "Layers"

        def __init__(self, sys_cfg, distro, paths, cfg_obj, ud, vd, vd2):
            super().__init__(sys_cfg, distro, paths)
            self.userdata_raw = ud
            self.vendordata_raw = vd
            self.vendordata2_raw = vd2
            self.metadata = {"instance-id": "iid-layers"}
            self.cfg_obj = cfg_obj
            self.reads = 0

        def _get_data(self):
            return True

        def get_config_obj(self):
            self.reads += 1
            return self.cfg_obj

    globals()["LayersDS"] = LayersDS  # picklable by name (obj.pkl)
    LayersDS.__module__ = "__main__"
    LayersDS.__qualname__ = "LayersDS"

    def b64(case, key):
        v = case.get(key)
        return None if v is None else base64.b64decode(v)

    def reset():
        for d in CASE_DIRS:
            for name in os.listdir(d):
                p = os.path.join(d, name)
                if os.path.isdir(p) and not os.path.islink(p):
                    shutil.rmtree(p)
                else:
                    os.unlink(p)

    env_file = os.path.join(tmp, "cloud-cfg-env.cfg")
    out = sys.stdout
    sys.stdout = io.StringIO()
    ncases = 0
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        case = json.loads(line)
        ncases += 1
        reset()
        del cap.lines[:]
        for rel, data in case.get("etc") or []:
            path = os.path.join("/etc/cloud", rel)
            if data is None:
                os.makedirs(path, exist_ok=True)
            else:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as fh:
                    fh.write(base64.b64decode(data))
        if case.get("run_cloud_cfg") is not None:
            with open("/run/cloud-init/cloud.cfg", "wb") as fh:
                fh.write(b64(case, "run_cloud_cfg"))
        if case.get("instance_data") is not None:
            with open("/run/cloud-init/instance-data-sensitive.json", "w") as fh:
                fh.write(case["instance_data"])
        if case.get("env") is not None:
            with open(env_file, "wb") as fh:
                fh.write(b64(case, "env"))
            os.environ["CLOUD_CFG"] = env_file
        else:
            os.environ.pop("CLOUD_CFG", None)
        os.environ["DEBUG_PROC_CMDLINE"] = case.get("cmdline") or ""
        ds_cfg = None
        if case.get("ds") is not None:
            import yaml
            ds_cfg = yaml.safe_load(b64(case, "ds"))
        res = {"id": case.get("id"), "modules": None, "init": None, "combined": None,
               "init_stage_error": None, "error": None}
        ds = None
        try:
            init = stages.Init(ds_deps=[])
            init.read_cfg()
            init.initialize()
            ds = LayersDS(init.cfg, None, init.paths, ds_cfg, b64(case, "user"),
                          b64(case, "vendor"), b64(case, "vendor2"))
            init.datasource = ds
            init._reset()
            init.cfg
            init.instancify()
            init.cfg
            try:
                init.update()
                init.consume_data(PER_INSTANCE)
            except Exception as e:
                res["init_stage_error"] = "%s: %s" % (type(e).__name__, e)
            if os.path.exists("/run/cloud-init/combined-cloud-config.json"):
                with open("/run/cloud-init/combined-cloud-config.json") as fh:
                    res["combined"] = fh.read()
            # The config stage: a new process's Init, the datasource restored.
            init2 = stages.Init(ds_deps=[])
            init2.read_cfg()
            init2.datasource = ds
            init2._reset()
            res["init"] = oracle.encode(init2.cfg, False)
            res["modules"] = oracle.encode(Modules(init2, []).cfg, False)
        except Exception as e:
            res["error"] = "%s: %s" % (type(e).__name__, e)
        res["warnings"] = list(cap.lines)
        res["ds_reads"] = ds.reads if ds is not None else 0
        out.write(json.dumps(res, ensure_ascii=False, allow_nan=False) + "\n")
        out.flush()
        sys.stdout = io.StringIO()
    import resource
    ru = resource.getrusage(resource.RUSAGE_SELF)
    sys.stderr.write("layers_oracle: %s cases, %.1f s CPU\n" % (ncases, ru.ru_utime + ru.ru_stime))
    return 0


if __name__ == "__main__":
    sys.exit(main())
