#!/usr/bin/env python3
"""The real files cloudfold's image profiles stand for, loaded by PyYAML and printed as
typed JSON (key order kept), for tests/oracle/layers_oracle.rs to compare with the profiles:

  {"debian": {"cloud.cfg": ..., "cloud.cfg.d/05_logging.cfg": ...},
   "ubuntu": {"cloud.cfg": ..., "cloud.cfg.d/05_logging.cfg": ...},
   "builtin": <settings.CFG_BUILTIN>}

debian: the files Debian's cloud-init package installs (the oracle's extraction).
ubuntu: upstream config/cloud.cfg.tmpl of the release rendered for the ubuntu variant by
cloud-init's own templater (render_cloudcfg at 22.4, render_template at 25.1, as
tools/render-cloudcfg and tools/render-template call them), and upstream
config/cloud.cfg.d/05_logging.cfg. The template is not in the binary package: it is taken
from the release's upstream tarball in Debian's source package, downloaded once with
`apt-get source --download-only` through a private apt state (the machine's own apt
sources are not changed) into the oracle cache.

Usage: scripts/profile_sources.py --release bookworm|trixie
"""
import argparse
import glob
import importlib.util
import os
import subprocess
import sys

from oracle_root import CACHE, DP, ROOTS
import tarfile
import tempfile

UPSTREAM = {"bookworm": "22.4.2", "trixie": "25.1.4"}


def source_tarball(release):
    """Debian's cloud-init_<upstream>.orig.tar.gz, downloaded once into the cache."""
    want = UPSTREAM[release]
    dest = os.path.join(CACHE, "cloud-init-src")
    tarball = os.path.join(dest, "cloud-init_%s.orig.tar.gz" % want)
    if os.path.exists(tarball):
        return tarball
    alt = os.path.join(CACHE, "apt-src")
    for d in ("lists/partial", "cache/archives/partial", "etc/sources.list.d",
              "etc/preferences.d"):
        os.makedirs(os.path.join(alt, d), exist_ok=True)
    # The archive the machine's apt already uses for its main suite.
    targets = subprocess.run(
        ["apt-get", "indextargets", "--format", "$(REPO_URI) $(COMPONENT)"],
        check=True, capture_output=True, text=True).stdout.split("\n")
    uri = next((t.split()[0] for t in targets if t.endswith(" main")), None)
    if not uri:
        sys.exit("profile_sources: no main archive in apt's sources")
    with open(os.path.join(alt, "etc", "sources.list"), "w") as fh:
        fh.write("deb-src %s bookworm main\ndeb-src %s trixie main\n" % (uri, uri))
    opts = []
    for k, v in [("Dir::Etc::SourceList", "etc/sources.list"),
                 ("Dir::Etc::SourceParts", "etc/sources.list.d"),
                 ("Dir::State::Lists", "lists"), ("Dir::Cache", "cache"),
                 ("Dir::Etc::Preferences", "etc/preferences"),
                 ("Dir::Etc::PreferencesParts", "etc/preferences.d")]:
        opts += ["-o", "%s=%s" % (k, os.path.join(alt, v))]
    q = ["-qq", "-o", "APT::Sandbox::User=root"]
    subprocess.run(["apt-get"] + opts + q + ["update"], check=True,
                   stdout=subprocess.DEVNULL)
    shown = subprocess.run(["apt-cache"] + opts + ["showsrc", "cloud-init"], check=True,
                           capture_output=True, text=True).stdout
    versions = [line.split(":", 1)[1].strip() for line in shown.splitlines()
                if line.startswith("Version:")]
    version = next((v for v in versions if v.split(":")[-1].startswith(want + "-")), None)
    if not version:
        sys.exit("profile_sources: no cloud-init %s source in %s" % (want, versions))
    os.makedirs(dest, exist_ok=True)
    subprocess.run(["apt-get"] + opts + q + ["source", "--download-only",
                                             "cloud-init=" + version],
                   check=True, cwd=dest, stdout=subprocess.DEVNULL)
    if not os.path.exists(tarball):
        sys.exit("profile_sources: %s not downloaded" % tarball)
    return tarball


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", required=True, choices=sorted(ROOTS))
    rel = ap.parse_args().release
    root = os.path.join(CACHE, ROOTS[rel])
    sys.path.insert(0, os.path.join(CACHE, "pydeps"))
    sys.path.insert(0, os.path.join(root, DP))
    import yaml
    from cloudinit import settings, templater
    oracle_path = os.environ["CLOUDFOLD_ORACLE"]
    spec = importlib.util.spec_from_file_location("ci_oracle", oracle_path)
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)

    def load(path):
        with open(path, encoding="utf-8") as fh:
            return oracle.encode(yaml.safe_load(fh.read()), False)

    etc = os.path.join(root, "etc", "cloud")
    out = {"debian": {"cloud.cfg": load(os.path.join(etc, "cloud.cfg")),
                      "cloud.cfg.d/05_logging.cfg":
                          load(os.path.join(etc, "cloud.cfg.d", "05_logging.cfg"))},
           "builtin": oracle.encode(settings.CFG_BUILTIN, False)}
    with tempfile.TemporaryDirectory() as tmp:
        top = "cloud-init-%s/config/" % UPSTREAM[rel]
        with tarfile.open(source_tarball(rel)) as tf:
            for name in ("cloud.cfg.tmpl", "cloud.cfg.d/05_logging.cfg"):
                member = tf.getmember(top + name)
                dst = os.path.join(tmp, name.replace("/", "_"))
                with tf.extractfile(member) as src, open(dst, "wb") as fh:
                    fh.write(src.read())
        tmpl = os.path.join(tmp, "cloud.cfg.tmpl")
        rendered = os.path.join(tmp, "cloud.cfg")
        if hasattr(templater, "render_cloudcfg"):
            templater.render_cloudcfg("ubuntu", tmpl, rendered)
        else:
            templater.render_template("ubuntu", tmpl, rendered, True, prefix="/usr")
        out["ubuntu"] = {"cloud.cfg": load(rendered),
                         "cloud.cfg.d/05_logging.cfg":
                             load(os.path.join(tmp, "cloud.cfg.d_05_logging.cfg"))}
    import json
    json.dump(out, sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
