#!/usr/bin/env python3
"""Write the validate fixtures (fixtures/validate/<code>.txt, one input per diagnostic code)
and their golden trycmd cases (fixtures/cli/validate-<code>.toml, -json.toml, -github.toml
and -sarif.toml; the last two take the exit code recorded for the first).

The inputs are hand-written here; the expected outputs are recorded from cloudfold itself
(add `status.code = N` for a non-zero exit, create empty .stdout/.stderr files, then
TRYCMD=overwrite cargo test -p cloudfold-cli --test cli cli_golden_cases) and reviewed by hand.
Usage: scripts/validate_fixtures.py   (from the repository root)
"""
import base64
import gzip
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIX = os.path.join(ROOT, "fixtures", "validate")
CLI = os.path.join(ROOT, "fixtures", "cli")


def mime(*parts, boundary="BOUNDARY", close=True, top_extra=""):
    out = ["Content-Type: multipart/mixed; boundary=\"%s\"" % boundary, "MIME-Version: 1.0"]
    if top_extra:
        out.append(top_extra)
    out.append("")
    for headers, body in parts:
        out.append("--" + boundary)
        out.extend(headers)
        out.append("")
        out.append(body.rstrip("\n"))
    if close:
        out.append("--%s--" % boundary)
    return ("\n".join(out) + "\n").encode()


def cc(body, filename, extra=()):
    return (["Content-Type: text/cloud-config; charset=\"us-ascii\"",
             "Content-Disposition: attachment; filename=\"%s\"" % filename] + list(extra),
            body)


CASES = {}  # code -> (bytes, extra args)


def case(code, data, *args):
    CASES[code] = (data if isinstance(data, bytes) else data.encode(), list(args))


# MIME structure
case("mime-not-split", "Content-Type: multipart/mixed\nMIME-Version: 1.0\n\n--B\n"
     "Content-Type: text/cloud-config\n\n#cloud-config\nruncmd: [ls]\n--B--\n")
case("mime-missing-close-boundary", mime(cc("#cloud-config\nruncmd: [ls]\n", "base.yaml"), close=False))
case("mime-header-defect", mime((["Content-Type: text/cloud-config", "Content-Disposition attachment"],
                                 "#cloud-config\nruncmd: [ls]\n")))
case("mime-multipart-encoding", mime(cc("#cloud-config\nruncmd: [ls]\n", "base.yaml"),
                                     top_extra="Content-Transfer-Encoding: base64"))
case("mime-empty-multipart", "Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\n"
     "no parts here\n")
case("mime-bad-base64", mime((["Content-Type: text/cloud-config", "Content-Transfer-Encoding: base64"],
                              "I2Nsb3VkLWNvbmZpZwphOiAxCg")))
case("mime-undecodable-base64", mime((["Content-Type: text/cloud-config",
                                       "Content-Transfer-Encoding: base64"], "abcde")))
# Aborts
case("userdata-gzip-invalid", mime((["Content-Type: application/x-gzip"], "hello")))
case("userdata-not-utf8", b"Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\n--B\n"
     b"Content-Type: text/cloud-config\n\n#cloud-config\nmotd: caf\xe9\n--B--\n")
case("userdata-archive-crash", "#cloud-config-archive\n- type: cloud-config\n  content: 'a: 1'\n")
case("userdata-launch-index-overflow", "#cloud-config\nlaunch-index: .inf\n")
case("userdata-mime-raises", "Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\n--B\n"
     "Content-Type: text/cloud-config\nContent-Disposition: attachment; filename*0=a; filename*=b\n\n"
     "#cloud-config\na: 1\n--B--\n")
case("userdata-limit", gzip.compress(b"#cloud-config\n" + b"# padding\n" * 200, mtime=0),
     "--max-decompressed-size", "100")
# Parts cloud-init ignores
case("part-yaml-invalid", "#cloud-config\npackages:\n  - git\nruncmd:\n\t- echo hi\n")
case("part-empty", "#cloud-config\n# nothing yet\n")
case("part-not-mapping", "#cloud-config\n- apt-get update\n- apt-get install -y git\n")
case("part-unknown-type", mime(cc("#cloud-config\nruncmd: [ls]\n", "base.yaml"),
                                (["Content-Type: text/x-yaml",
                                  "Content-Disposition: attachment; filename=\"extra.yaml\""],
                                 "packages: [git]\n")))
case("part-json-invalid", "#cloud-config-jsonp\n[{\"op\": \"add\", \"path\": \"/a\", \"value\": 1,}]\n")
case("part-json-patch-failed", mime(cc("#cloud-config\nruncmd: [ls]\n", "base.yaml"),
                                     (["Content-Type: text/cloud-config-jsonp"],
                                      "[{\"op\": \"remove\", \"path\": \"/packages\"}]\n")))
case("part-jinja-not-rendered", "## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostname }}\n")
case("include-not-fetched", "#include\nhttps://example.com/base.yaml\n")
case("archive-ignored", "#cloud-config-archive\ncontent: 'a: 1'\n")
case("part-filtered-launch-index", mime(cc("#cloud-config\nruncmd: [ls]\n", "all.yaml"),
                                         cc("#cloud-config\nruncmd: [web]\n", "web.yaml",
                                            ["Launch-Index: 1"])),
     "--launch-index", "0")
case("part-handed-again", mime((["Content-Type: message/rfc822"],
                                 "Content-Type: text/cloud-config\n"
                                 "Merge-Type: list(append)+dict(recurse_list)+str()\n\n"
                                 "#cloud-config\nruncmd: [ls]\n")))
# Merge specs
case("merge-spec-syntax", "#cloud-config\nmerge_how: dict(replace\nruncmd: [ls]\n")
case("merge-unknown-merger", "#cloud-config\nmerge_how: lists(append)+dict(recurse_list)\nruncmd: [ls]\n")
case("merge-spec-invalid", "#cloud-config\nmerge_how:\n  - name: list\nruncmd: [ls]\n")
case("merge-failed", mime(cc("#cloud-config\nmotd: hello\n", "base.yaml"),
                           cc("#cloud-config\nmerge_how: dict(no_replace)+str(append)\nmotd:\n  text: hi\n",
                              "extra.yaml")))
case("merge-unknown-option", "#cloud-config\nmerge_how: dict(no_replace,recurse_lists)+list(apend,prepnd)\nruncmd: [ls]\n")
case("merge-option-no-effect", "#cloud-config\nmerge_how: dict(replace,recurse_list)+list(append,recurse_dict)\nruncmd: [ls]\n")
case("merge-settings-substring", "#cloud-config\nmerge_how:\n  - name: dict\n    settings: no_replace\nruncmd: [ls]\n")
case("merge-merger-shadowed", "#cloud-config\nmerge_how: dict(no_replace,recurse_list)+list(append)+dict(replace)+dict()\nruncmd: [ls]\n")
case("merge-merger-unreachable", mime(cc("#cloud-config\nruncmd: [a]\n", "base.yaml"),
                                       cc("#cloud-config\nruncmd: [b]\n", "extra.yaml",
                                          ["Merge-Type: dict(replace)+list(append)"])))
case("merge-no-dict-merger", mime(cc("#cloud-config\nruncmd: [a]\n", "base.yaml"),
                                   cc("#cloud-config\nmerge_how: list(append)\nruncmd: [b]\n", "extra.yaml")))
case("merge-list-replaced", mime(
    cc("#cloud-config\nmerge_how: dict(no_replace,recurse_list)+list(append)\nruncmd:\n  - apt-get update\n  - systemctl start app\n", "base.yaml"),
    cc("#cloud-config\npackages: [nginx]\nruncmd:\n  - echo extra\n", "extra.yaml")))
case("merge-list-truncated", mime(cc("#cloud-config\nruncmd: [a]\n", "base.yaml"),
                                   cc("#cloud-config\nmerge_how: dict(no_replace,recurse_list)+list()\nruncmd: [b, c, d]\n",
                                      "extra.yaml")))
case("merge-value-ignored", mime(cc("#cloud-config\nruncmd: [a]\n", "base.yaml"),
                                  cc("#cloud-config\nmerge_how: dict(no_replace)+list(append)\nruncmd: [b]\n",
                                     "extra.yaml")))
# A part another agent reads (EKS nodeadm), written here after nodeadm's documented NodeConfig
case("part-other-agent", mime((["Content-Type: application/node.eks.aws"],
                               "---\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n"
                               "  cluster:\n    name: example\n    apiServerEndpoint: https://example.com\n"),
                              (["Content-Type: text/x-shellscript"], "#!/bin/sh\necho hello\n"),
                              boundary="//"))
# Encodings
plain = b"#cloud-config\nruncmd: [ls]\n"
case("encoding-base64-payload", base64.b64encode(plain) + b"\n")
case("encoding-double-base64", base64.b64encode(base64.b64encode(plain)) + b"\n")
case("encoding-double-gzip", gzip.compress(gzip.compress(plain, mtime=0), mtime=0))
case("encoding-undeclared-base64", mime((["Content-Type: text/cloud-config"],
                                         base64.b64encode(plain).decode())))
# Size
big = "#cloud-config\nwrite_files:\n  - path: /etc/motd\n    content: |\n" + \
      "".join("      line %04d of a long message of the day\n" % i for i in range(500))
case("size-over-limit", big, "--platform", "ec2")
case("size-near-limit", "#cloud-config\nruncmd: [echo hello]\n", "--max-size", "35")
case("size-budget", "#cloud-config\nruncmd: [echo hello]\n", "--platform", "openstack")
# A payload with nothing to report
case("valid", mime(cc("#cloud-config\nmerge_how: dict(no_replace,recurse_list)+list(append)\nruncmd: [a]\n", "base.yaml"),
                   cc("#cloud-config\nmerge_how: dict(no_replace,recurse_list)+list(append)\nruncmd: [b]\n", "extra.yaml")))


def toml(args):
    return 'bin.name = "cloudfold"\nargs = [%s]\nfs.cwd = "../validate"\n' % ", ".join('"%s"' % a for a in args)


def main():
    os.makedirs(FIX, exist_ok=True)
    for code, (data, extra) in sorted(CASES.items()):
        name = code + (".gz" if data[:2] == b"\x1f\x8b" else ".txt")
        with open(os.path.join(FIX, name), "wb") as f:
            f.write(data)
        human = os.path.join(CLI, "validate-%s.toml" % code)
        for suffix, fmt in (("", []), ("-json", ["--format", "json"]),
                            ("-github", ["--format", "github"]), ("-sarif", ["--format", "sarif"])):
            path = os.path.join(CLI, "validate-%s%s.toml" % (code, suffix))
            if os.path.exists(path):  # keep its recorded `status.code`
                continue
            status = ""
            if fmt and fmt[1] in ("github", "sarif") and os.path.exists(human):
                status = "".join(l for l in open(human) if l.startswith("status.code"))
            with open(path, "w") as f:
                f.write(toml(["validate", name] + extra + fmt) + status)


if __name__ == "__main__":
    main()
