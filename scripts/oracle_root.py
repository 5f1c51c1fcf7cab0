"""Where the oracle's extracted cloud-init lives, and the private root drivers run it in.

Shared by the scripts that import the extracted cloud-init themselves (layers_oracle.py,
plan_oracle.py, cc_meta.py, profile_sources.py, query_oracle.py); ../shared's setup.sh
extracts it into CACHE, never installs it.
"""
import logging
import os
import shutil
import subprocess
import sys
import tempfile

CACHE = os.environ.get(
    "CI_ORACLE_CACHE",
    os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                 "cloudfold-oracle"))
ROOTS = {"bookworm": "cloud-init-root", "trixie": "cloud-init-root-trixie"}
DP = os.path.join("usr", "lib", "python3", "dist-packages")
# The trees a case owns: each on its own tmpfs, emptied per case without overlay whiteouts.
CASE_DIRS = ("/etc/cloud", "/var/lib/cloud", "/run/cloud-init", "/var/log")


def dist_packages(release):
    """The extracted cloud-init's dist-packages for `bookworm` (22.4) or `trixie` (25.1)."""
    return os.path.join(CACHE, ROOTS[release], DP)


def use_release(release):
    """Put the release's extracted cloud-init, then the oracle's pinned deps, first on sys.path."""
    sys.path.insert(0, os.path.join(CACHE, "pydeps"))
    sys.path.insert(0, dist_packages(release))


def enter_namespace(flag, prefix):
    """Re-run the main script under a private mount namespace (`unshare -m`; `flag` marks
    the second run), overlay /etc, /var and /run on the machine's own so nothing outside
    the namespace changes, and mount a tmpfs on each of CASE_DIRS. Returns the scratch
    directory holding the overlays' upper layers."""
    if os.environ.get(flag) != "1":
        env = dict(os.environ, **{flag: "1"})
        script = os.path.abspath(sys.modules["__main__"].__file__)
        os.execvpe("unshare", ["unshare", "-m", "--propagation", "private",
                               sys.executable, script] + sys.argv[1:], env)
    tmp = tempfile.mkdtemp(prefix=prefix)
    for i, d in enumerate(["/etc", "/var", "/run"]):
        up, wk = os.path.join(tmp, "u%d" % i), os.path.join(tmp, "w%d" % i)
        os.makedirs(up)
        os.makedirs(wk)
        subprocess.run(["mount", "-t", "overlay", "overlay", "-o",
                        "lowerdir=%s,upperdir=%s,workdir=%s" % (d, up, wk), d],
                       check=True)
    for d in CASE_DIRS:
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        subprocess.run(["mount", "-t", "tmpfs", "tmpfs", d], check=True)
    return tmp


def log_only_to(handler, level):
    """Route cloud-init's logging to `handler` alone, from `level` up (no stderr fallback)."""
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(level)
    logging.lastResort = None
