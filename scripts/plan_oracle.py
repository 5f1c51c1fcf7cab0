#!/usr/bin/env python3
"""Boot-plan oracle: run the extracted cloud-init's own consume_data and
Modules runner over a throw-away root, twice (a first boot, then the next boot
of the same instance), and record what ran.

Reads JSON lines on stdin, one case each:
  {"id": ..., "etc": [[relpath, b64], ...], "user": b64|null,
   "vendor": b64|null, "vendor2": b64|null, "instance_data": str|null,
   "iid": str}
and writes one JSON line per case: {"id", "boots": [boot, boot], "error"}
where each boot is a list of events, in order:
  ["consume", "once-per-instance"|"always"|"failed: <exception>"]
  ["boothook", path, text]                    (a subp call during consume_data)
  ["section", key, null | "<exception>"]
  ["module", key, name, frequency|null, runs, reason|null]
  ["exec", key, module, argv, text]           (a subp call while a module runs)
  ["write", key, module, path, mode, omode, b64-content, user, group]
  ["users", key, module, [[name, default?, [[key, str(value)]...]]...],
   [[group, [str(member)...]]...]]  (users null, groups the exception, if it raised)
reason: "blank-name", "unknown-module", "no-activating-key",
"distro-not-verified", "already-ran" (or null when it runs).

How: cmd/main.py's main_init (init stage: Init.read_cfg, the datasource set,
instancify, update, consume_data under the consume_data semaphore, then
Modules(init).run_section("cloud_init_modules")) and main_modules for
cloud_config_modules and cloud_final_modules (a fresh Init, the datasource
restored). Every cc_* module's `handle` is replaced by a recorder; the
recorder calls the real handle of bootcmd, runcmd, write_files(_deferred)
and the scripts_* modules, with `subp.subp` stubbed (each call recorded with
the text of the file it runs) and, inside write_files, `util.write_file`
recorded (and done only under /var/lib/cloud and /etc/cloudfold-plan) and
`util.chownbyname` skipped. users_groups records ug_util.normalize_users_groups's result.
Which entries were read, found, active and handed to _run_modules is taken
from cloud-init's own _read_modules / _fixup_modules / _is_active /
_run_modules (wrapped, not re-implemented).

The root is the real one in a private mount namespace (as layers_oracle.py):
/etc, /var and /run are overlays; /etc/cloud, /var/lib/cloud, /run/cloud-init
and /var/log are tmpfs, emptied per case (kept between its two boots).

Usage: scripts/plan_oracle.py --release bookworm|trixie < cases.jsonl
"""
import argparse
import base64
import functools
import importlib
import io
import json
import logging
import os
import pkgutil
import shutil
import sys

from oracle_root import CASE_DIRS, ROOTS, enter_namespace, log_only_to, use_release

HERE = os.path.dirname(os.path.abspath(__file__))
NS_FLAG = "CLOUDFOLD_PLAN_NS"
SECTIONS = ("cloud_init_modules", "cloud_config_modules", "cloud_final_modules")
# Where write_files really writes (the namespace's own trees; elsewhere it is only
# recorded): cloud-init's own directory, and a scratch directory the generator writes
# to, so a later entry meets what an earlier one made (IsADirectoryError and all).
SCRATCH = "/etc/cloudfold-plan"
WRITTEN = ("/var/lib/cloud/", SCRATCH + "/")
# Modules whose real handle runs (they write scripts or run commands).
REAL = {"cc_bootcmd", "cc_runcmd", "cc_write_files", "cc_write_files_deferred",
        "cc_scripts_user", "cc_scripts_vendor", "cc_scripts_per_boot",
        "cc_scripts_per_instance", "cc_scripts_per_once"}


def speed_up(release):
    """Memoize two pure functions cloud-init calls thousands of times per
    case: the YAML load behind util.load_yaml (pure-Python PyYAML; each
    Init re-reads /etc/cloud after every _reset) and importer.find_module
    for config modules and distros (the tree never changes). Each call still
    gets a fresh object (a deepcopy keeps shared nodes shared, as aliases
    are), and an exception is raised again, so cloud-init sees what it
    would see; only the work is not repeated."""
    import copy
    import types
    from cloudinit import importer, util

    import pickle

    def fast_deepcopy(x, memo=None):
        if memo is None:
            try:
                return pickle.loads(pickle.dumps(x, protocol=pickle.HIGHEST_PROTOCOL))
            except Exception:
                pass
        return copy.deepcopy(x, memo)

    def memo(fn):
        cache = {}

        def load(blob, *a, **kw):
            try:
                key = (blob, a, tuple(sorted(kw.items())))
                hash(key)
            except TypeError:
                return fn(blob, *a, **kw)
            if key not in cache:
                try:
                    cache[key] = (True, fn(blob, *a, **kw))
                except Exception as e:  # replayed below
                    cache[key] = (False, e)
            ok, v = cache[key]
            if not ok:
                raise v
            return fast_deepcopy(v)
        return load

    def proxy(mod, name):
        p = types.ModuleType(mod.__name__)
        p.__dict__.update(mod.__dict__)
        setattr(p, name, memo(getattr(mod, name)))
        return p

    if release == "bookworm":
        util.safeyaml = proxy(util.safeyaml, "load")
    else:
        util.yaml = proxy(util.yaml, "safe_load")

    real_find = importer.find_module
    found = {}

    def find_module(base_name, search_paths, required_attrs=None):
        key = (base_name, tuple(search_paths), tuple(required_attrs or ()))
        if tuple(search_paths) not in (("", "cloudinit.config"), ("", "cloudinit.distros")):
            return real_find(base_name, search_paths, required_attrs)
        if key not in found:
            try:
                found[key] = (True, real_find(base_name, search_paths, required_attrs))
            except Exception as e:  # replayed below
                found[key] = (False, e)
        ok, v = found[key]
        if not ok:
            raise v
        return (list(v[0]), list(v[1]))

    importer.find_module = find_module

    # util.SeLinuxGuard imports `selinux` at every write_file; it is not
    # installed, and a failed import searches all of sys.path each time.
    sys.modules.setdefault("selinux", None)

    # Modules.cfg and Init._extract_cfg deep-copy the whole config at every
    # access (twice per listed module): the same copy, made by pickle's C code.
    from cloudinit import stages
    from cloudinit.config import modules as cmodules

    for m in (stages, cmodules):
        m.copy = types.ModuleType("copy")
        m.copy.__dict__.update(copy.__dict__)
        m.copy.deepcopy = fast_deepcopy


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", default="bookworm", choices=sorted(ROOTS))
    opts = ap.parse_args()
    enter_namespace(NS_FLAG, "cloudfold-plan-")
    use_release(opts.release)
    os.chdir("/")
    import cloudinit.config as config_pkg
    from cloudinit import sources, stages, subp, util
    from cloudinit.config import modules as cmodules
    from cloudinit.distros import ug_util
    from cloudinit.settings import PER_ALWAYS, PER_INSTANCE

    speed_up(opts.release)

    log_only_to(logging.NullHandler(), logging.CRITICAL)

    class PlanDS(sources.DataSource):
        dsname = "Plan"

        def __init__(self, sys_cfg, distro, paths, iid, ud, vd, vd2):
            super().__init__(sys_cfg, distro, paths)
            self.userdata_raw = ud
            self.vendordata_raw = vd
            self.vendordata2_raw = vd2
            self.metadata = {"instance-id": iid}

        def _get_data(self):
            return True

    globals()["PlanDS"] = PlanDS
    PlanDS.__module__ = "__main__"
    PlanDS.__qualname__ = "PlanDS"

    # --- the recorder -----------------------------------------------------
    state = {"events": None, "section": None, "module": None}

    def emit(*ev):
        state["events"].append(list(ev))

    def read_text(path):
        try:
            with open(path, "rb") as fh:
                return fh.read().decode("utf-8", "replace")
        except OSError:
            return None

    def fake_subp(args, *a, **kw):
        argv = [str(x) for x in (args if isinstance(args, (list, tuple)) else [args])]
        text = read_text(argv[-1]) if argv else None
        if state["module"] is None:
            emit("boothook", argv[-1], text)
        else:
            # bootcmd runs its shellify text from a temporary file (under
            # /run/cloud-init/tmp): its name is random. run-parts' paths
            # (under /var/lib/cloud, with any vendor_data prefix) are kept.
            if (argv[:1] == ["/bin/sh"] and len(argv) == 2
                    and not argv[1].startswith("/var/lib/cloud/")):
                argv = ["/bin/sh", "<tmp>"]
            emit("exec", state["section"], state["module"], argv, text)
        return ("", "")

    subp.subp = fake_subp

    real_write_file = util.write_file
    real_chown = util.chownbyname

    def recording_write_file(filename, content, mode=0o644, omode="wb", *a, **kw):
        user, group = kw.get("user"), kw.get("group")
        if (os.path.abspath(filename) + "/").startswith(WRITTEN):
            kw.pop("user", None)
            kw.pop("group", None)
            real_write_file(filename, content, mode, omode, *a, **kw)
        data = util.encode_text(content)
        emit("write", state["section"], state["module"], filename,
             mode if isinstance(mode, int) else None, omode,
             base64.b64encode(data).decode(), user, group)

    def recorder(modname, orig):
        @functools.wraps(orig)
        def handle(*args, **kwargs):
            name = kwargs.get("name", args[0] if args else None)
            state["ran"].append(name)
            if modname == "cc_users_groups":
                cfg = kwargs.get("cfg", args[1] if len(args) > 1 else None)
                cloud = kwargs.get("cloud", args[2] if len(args) > 2 else None)
                try:
                    (users, groups) = ug_util.normalize_users_groups(cfg, cloud.distro)
                    ulist = [[str(n), bool(c.get("default", False)),
                              [[str(k), str(v)] for k, v in c.items() if k != "default"]]
                             for n, c in users.items()]
                    glist = [[str(g), [str(m) for m in mem]] for g, mem in groups.items()]
                    emit("users", state["section"], name, ulist, glist)
                except Exception as e:
                    emit("users", state["section"], name, None, "%s: %s" % (type(e).__name__, e))
                return None
            if modname not in REAL:
                return None
            state["module"] = name
            try:
                if modname in ("cc_write_files", "cc_write_files_deferred"):
                    util.write_file = recording_write_file
                    util.chownbyname = lambda *a, **k: None
                return orig(*args, **kwargs)
            finally:
                util.write_file = real_write_file
                util.chownbyname = real_chown
                state["module"] = None
        return handle

    for m in pkgutil.iter_modules(config_pkg.__path__):
        if m.name.startswith("cc_"):
            mod = importlib.import_module("cloudinit.config." + m.name)
            mod.handle = recorder(m.name, mod.handle)

    # cloud-init's own steps, observed.
    real_read = cmodules.Modules._read_modules
    real_fixup = cmodules.Modules._fixup_modules
    real_active = cmodules._is_active
    real_run = cmodules.Modules._run_modules
    obs = {}

    def read_modules(self, name):
        r = real_read(self, name)
        obs["raw"] = r
        return r

    def fixup(self, raw):
        r = real_fixup(self, raw)
        obs["fixed"] = r
        return r

    def is_active(details, cfg):
        r = real_active(details, cfg)
        obs.setdefault("inactive", set())
        if not r:
            obs["inactive"].add(id(details))
        return r

    def run_modules(self, mostly):
        obs["active"] = [id(m[0]) for m in mostly]
        obs["active_list"] = list(mostly)
        return real_run(self, mostly)

    from cloudinit import helpers
    real_runner = helpers.Runners.run

    def runner(self, name, functor, args, freq=None, clear_on_fail=False):
        if not str(name).startswith("config-"):
            return real_runner(self, name, functor, args, freq, clear_on_fail)
        before = len(state["ran"])
        try:
            return real_runner(self, name, functor, args, freq, clear_on_fail)
        finally:
            obs.setdefault("runs", []).append(len(state["ran"]) > before)

    helpers.Runners.run = runner
    cmodules.Modules._read_modules = read_modules
    cmodules.Modules._fixup_modules = fixup
    cmodules._is_active = is_active
    cmodules.Modules._run_modules = run_modules

    def run_section(mods, key):
        obs.clear()
        state["section"] = key
        state["ran"] = []
        err = None
        try:
            mods.run_section(key)
        except Exception as e:
            err = "%s: %s" % (type(e).__name__, e)
        emit("section", key, err)
        if err is not None:
            state["section"] = None
            return
        fixed = list(obs.get("fixed", []))
        inactive = obs.get("inactive", set())
        active = obs.get("active_list", [])
        runs = obs.get("runs", [])
        fi = 0
        ai = 0
        for raw in obs.get("raw", []):
            name = raw["mod"]
            if not cmodules.form_module_name(name):
                emit("module", key, name, None, False, "blank-name")
                continue
            if fi < len(fixed) and fixed[fi].name == name:
                d = fixed[fi]
                fi += 1
                if any(id(d) == x for x in inactive):
                    reason = "no-activating-key"
                elif ai < len(active) and active[ai][1] == d.name and active[ai][0] is d.module:
                    reason = None if ai < len(runs) and runs[ai] else "already-ran"
                    ai += 1
                else:
                    reason = "distro-not-verified"
                emit("module", key, name, d.frequency, reason is None, reason)
            else:
                emit("module", key, name, None, False, "unknown-module")
        state["section"] = None

    def b64(case, key):
        v = case.get(key)
        return None if v is None else base64.b64decode(v)

    def reset():
        if os.path.isdir(SCRATCH) and not os.path.islink(SCRATCH):
            shutil.rmtree(SCRATCH)
        elif os.path.lexists(SCRATCH):
            os.unlink(SCRATCH)
        for d in CASE_DIRS:
            for name in os.listdir(d):
                p = os.path.join(d, name)
                if os.path.isdir(p) and not os.path.islink(p):
                    shutil.rmtree(p)
                else:
                    os.unlink(p)

    def new_ds(init, case):
        return PlanDS(init.cfg, None, init.paths, case.get("iid") or "iid-plan",
                      b64(case, "user"), b64(case, "vendor"), b64(case, "vendor2"))

    def boot(case):
        state["events"] = []
        state["module"] = None
        state["section"] = None
        # A boot is a fresh process: part-handlers are imported anew.
        for k in [k for k in sys.modules if k.startswith("part-handler-")]:
            del sys.modules[k]
        # main_init
        init = stages.Init(ds_deps=[])
        init.read_cfg()
        init.initialize()
        ds = new_ds(init, case)
        init.datasource = ds
        init._reset()
        init.instancify()
        init_ok = True
        try:
            init.update()
        except Exception as e:
            emit("consume", "failed: %s: %s" % (type(e).__name__, e))
            init_ok = False
        if init_ok:
            try:
                (ran, _r) = init.cloudify().run(
                    "consume_data", init.consume_data, args=[PER_INSTANCE],
                    freq=PER_INSTANCE)
                freq = PER_INSTANCE
                if not ran:
                    freq = PER_ALWAYS
                    init.consume_data(PER_ALWAYS)
                emit("consume", freq)
            except Exception as e:
                emit("consume", "failed: %s: %s" % (type(e).__name__, e))
                init_ok = False
        if init_ok:
            run_section(cmodules.Modules(init, []), "cloud_init_modules")
        # main_modules (config, then final)
        for key in SECTIONS[1:]:
            init2 = stages.Init(ds_deps=[])
            init2.read_cfg()
            init2.datasource = new_ds(init2, case)
            init2._reset()
            run_section(cmodules.Modules(init2, []), key)
        return state["events"]

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
        for rel, data in case.get("etc") or []:
            path = os.path.join("/etc/cloud", rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as fh:
                fh.write(base64.b64decode(data))
        if case.get("instance_data") is not None:
            with open("/run/cloud-init/instance-data-sensitive.json", "w") as fh:
                fh.write(case["instance_data"])
        os.environ.pop("CLOUD_CFG", None)
        os.environ["DEBUG_PROC_CMDLINE"] = ""
        res = {"id": case.get("id"), "boots": [], "error": None}
        try:
            for _ in range(2):
                res["boots"].append(boot(case))
        except Exception as e:
            import traceback
            res["error"] = "%s: %s\n%s" % (type(e).__name__, e, traceback.format_exc())
        out.write(json.dumps(res, ensure_ascii=False) + "\n")
        out.flush()
        sys.stdout = io.StringIO()
    import resource
    ru = resource.getrusage(resource.RUSAGE_SELF)
    sys.stderr.write("plan_oracle: %s cases, %.1f s CPU\n" % (ncases, ru.ru_utime + ru.ru_stime))
    return 0


if __name__ == "__main__":
    sys.exit(main())
