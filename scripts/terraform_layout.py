#!/usr/bin/env python3
"""Write fixtures/build/terraform/: Terraform `cloudinit_config` payloads from its documented layout.

The layout (hashicorp/terraform-provider-cloudinit, `renderPartsToWriter` and its test
expectations; summarised in ../shared/research/peers.md §2.2), for gzip=false,
base64_encode=false:

    Content-Type: multipart/mixed; boundary="B"\\n          (LF)
    MIME-Version: 1.0\\r\\n\\r\\n
    --B\\r\\n                      (later parts: \\r\\n--B\\r\\n)
    <part headers, Go-canonical keys, sorted>\\r\\n ...
    \\r\\n
    <content>
    \\r\\n--B--\\r\\n

Part headers: Content-Disposition (only with a filename), Content-Transfer-Encoding: 7bit,
Content-Type, Mime-Version: 1.0, X-Merge-Type (only with a merge type).

Each case is NAME.json (the parts and boundary, as `cloudfold build` takes them) and
NAME.expected (the bytes). Only ASCII content: the provider's 7bit parts are what cloudfold
reproduces byte for byte (non-ASCII parts are deliberately sent base64 instead).
Usage: scripts/terraform_layout.py  (from the repository root)
"""
import json
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "build", "terraform")

CASES = {
    # The provider's own basic test: one part with a filename.
    "one-part-filename": {"parts": [
        {"content": "baz", "type": "text/x-shellscript", "filename": "foobar.sh"}]},
    # No filename: no Content-Disposition.
    "one-part-no-filename": {"parts": [
        {"content": "baz", "type": "text/x-shellscript"}]},
    # Two parts, merge type on the second.
    "two-parts-merge-type": {"parts": [
        {"content": "#cloud-config\npackages: [git]\n", "type": "text/cloud-config",
         "filename": "base.yaml"},
        {"content": "#cloud-config\npackages: [nginx]\n", "type": "text/cloud-config",
         "filename": "extra.yaml", "merge_type": "list(append)+dict(recurse_array)+str()"}]},
    # Custom boundary, empty content.
    "custom-boundary-empty": {"boundary": "//", "parts": [
        {"content": "", "type": "text/x-shellscript", "filename": "empty.sh"},
        {"content": "#!/bin/sh\r\necho crlf\r\n", "type": "text/x-shellscript"}]},
}


def render(case):
    b = case.get("boundary", "MIMEBOUNDARY")
    out = 'Content-Type: multipart/mixed; boundary="%s"\nMIME-Version: 1.0\r\n\r\n' % b
    for i, p in enumerate(case["parts"]):
        out += ("\r\n--%s\r\n" if i else "--%s\r\n") % b
        headers = {"Content-Transfer-Encoding": "7bit", "Content-Type": p["type"],
                   "Mime-Version": "1.0"}
        if p.get("filename"):
            headers["Content-Disposition"] = 'attachment; filename="%s"' % p["filename"]
        if p.get("merge_type"):
            headers["X-Merge-Type"] = p["merge_type"]
        for k in sorted(headers):
            out += "%s: %s\r\n" % (k, headers[k])
        out += "\r\n" + p["content"]
    out += "\r\n--%s--\r\n" % b
    return out.encode("ascii")


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, case in CASES.items():
        with open(os.path.join(OUT, name + ".json"), "w") as f:
            json.dump(case, f, indent=2, sort_keys=True)
            f.write("\n")
        with open(os.path.join(OUT, name + ".expected"), "wb") as f:
            f.write(render(case))


if __name__ == "__main__":
    main()
