#!/usr/bin/env python3
"""Write the hand-picked MIME corpus to fixtures/mime/: <name>.eml (the document,
UTF-8, byte-exact) and <name>.json (what CPython's `email` makes of it, as
described by scripts/mime_oracle.py). Run from the repository root:

    python3 scripts/mime_fixtures.py

Every disagreement ever found between src/mime and Python gets a case here.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mime_oracle  # noqa: E402

MM = "===============1234567890123456789=="

CASES = {
    # --- headers -----------------------------------------------------------
    "header-basic": "Content-Type: text/plain\nX-A: 1\n\nbody\n",
    "header-folded-lf": "Subject: one\n two\n\tthree\nContent-Type: text/plain\n\nb\n",
    "header-folded-crlf": "Subject: one\r\n two\r\nContent-Type: text/plain\r\n\r\nb\r\n",
    "header-folded-content-type": "Content-Type: multipart/mixed;\n boundary=\"B\"\n\n--B\n\nx\n--B--\n",
    "header-odd-name-chars": "X-Odd!#$%&'*+-.^_`|~: v\nhttp://example.com\n\nbody\n",
    "header-space-before-colon": "Content-Type : text/x-shellscript\n\n#!/bin/sh\n",
    "header-empty-name": ":novalue\nContent-Type: text/plain\n\nb\n",
    "header-first-is-continuation": " leading\nContent-Type: text/plain\n\nb\n",
    "header-continuation-after-bad": ":x\n cont\nA: b\n\nbody",
    "header-duplicates-case": "merge-type: a\nMerge-Type: b\nMERGE-TYPE: c\n\nx\n",
    "header-empty-value": "X-Empty:\nX-Spaces:   \t \n\nx\n",
    "header-trailing-space-value": "Content-Transfer-Encoding: base64 \n\naGVsbG8=\n",
    "header-only": "Content-Type: text/plain\nMIME-Version: 1.0\n",
    "header-only-no-newline": "Content-Type: text/plain",
    "header-blank-continuation": "A: b\n   \nbody\n",
    "header-1k-value": "X-Long: " + "v" * 1000 + "\n\nx\n",
    # --- first line not a header / separator defects ----------------------
    "no-headers-cloud-config": "#cloud-config\n# MIME-Version: 1.0 mentioned\na: 1\n",
    "no-separator": "Content-Type: text/plain\nnot a header line\nmore\n",
    "blank-first-line": "\nContent-Type: text/plain\n\nx\n",
    "empty-document": "",
    "only-newline": "\n",
    "unixfrom": "From nobody Fri Aug 31 17:17:00 2012\nContent-Type: text/plain\n\nx\n",
    "unixfrom-misplaced": "A: 1\nFrom x\nB: 2\n\nbody\n",
    "unixfrom-last-header": "A: 1\nFrom x\n\nbody\n",
    "unixfrom-last-header-no-blank": "A: 1\nFrom x\nbody\n",
    # --- line endings ------------------------------------------------------
    "crlf-multipart": "Content-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\na\r\n--B\r\n\r\nb\r\n--B--\r\n",
    "cr-only-multipart": "Content-Type: multipart/mixed; boundary=B\r\r--B\rContent-Type: text/plain\r\ra\r--B--\r",
    "mixed-line-endings": "Content-Type: multipart/mixed; boundary=B\n\r\n--B\r\n\nx\r--B--\n",
    "terraform-layout": "Content-Type: multipart/mixed; boundary=\"MIMEBOUNDARY\"\nMIME-Version: 1.0\r\n\r\n--MIMEBOUNDARY\r\nContent-Disposition: attachment; filename=\"foofile1.txt\"\r\nContent-Transfer-Encoding: 7bit\r\nContent-Type: text/x-shellscript\r\nMime-Version: 1.0\r\nX-Merge-Type: list(append)+dict(recurse_array)+str()\r\n\r\n#!/bin/sh\r\necho hi\r\n\r\n--MIMEBOUNDARY--\r\n",
    # --- content types -----------------------------------------------------
    "ctype-garbage": "Content-Type: garbage\n\nx\n",
    "ctype-two-slashes": "Content-Type: text/text/cloud-config\n\n#cloud-config\n",
    "ctype-upper-params": "Content-Type: Text/Cloud-Config; Charset=\"UTF-8\"\n\nx\n",
    "ctype-empty": "Content-Type:\n\nx\n",
    "ctype-slash-only": "Content-Type: /\n\nx\n",
    "ctype-unicode": "Content-Type: text/CAF\u00c9\n\nx\n",
    "ctype-folded-no-semicolon": "Content-Type: text/plain\n more\n\nx\n",
    # --- parameters / filenames -------------------------------------------
    "filename-quoted": "Content-Disposition: attachment; filename=\"a b.txt\"\n\nx\n",
    "filename-unquoted": "Content-Disposition: attachment; filename=a.txt\n\nx\n",
    "filename-semicolon-in-quotes": "Content-Disposition: attachment; filename=\"x;y.txt\"\n\nx\n",
    "filename-escaped-quote": "Content-Disposition: attachment; filename=\"a\\\"b;c\"\n\nx\n",
    "filename-angle": "Content-Disposition: attachment; filename=\"<a.txt>\"\n\nx\n",
    "filename-rfc2231-utf8": "Content-Disposition: attachment; filename*=utf-8''caf%C3%A9%20%E2%82%AC.txt\n\nx\n",
    "filename-rfc2231-latin1": "Content-Disposition: attachment; filename*=iso-8859-1'en'caf%E9\n\nx\n",
    "filename-rfc2231-unknown-charset": "Content-Disposition: attachment; filename*=foo''bar%41\n\nx\n",
    "filename-rfc2231-no-ticks": "Content-Disposition: attachment; filename*=plain%41\n\nx\n",
    "filename-rfc2231-continuations": "Content-Disposition: attachment; filename*0*=utf-8''%C3; filename*1*=%A9; filename*2=\".txt\"\n\nx\n",
    "filename-rfc2231-mixed-sections": "Content-Disposition: attachment; filename*=utf-8''a; filename*0=b\n\nx\n",
    "filename-plain-before-rfc2231": "Content-Disposition: attachment; filename*=utf-8''a.txt; filename=\"b.txt\"\n\nx\n",
    "filename-from-ctype-name": "Content-Type: text/plain; name=\"n.txt\"\n\nx\n",
    "filename-spaces-stripped": "Content-Disposition: attachment; FILENAME = \"  s.txt  \"\n\nx\n",
    "filename-no-disposition-type": "Content-Disposition: filename=\"f.txt\"\n\nx\n",
    # --- multipart ---------------------------------------------------------
    "make-mime-layout": f"Content-Type: multipart/mixed; boundary=\"{MM}\"\nMIME-Version: 1.0\n\n--{MM}\nContent-Type: text/cloud-config; charset=\"utf-8\"\nMIME-Version: 1.0\nContent-Transfer-Encoding: base64\nContent-Disposition: attachment; filename=\"config.yaml\"\n\nI2Nsb3VkLWNvbmZpZwpob3N0bmFtZTogY2Fmw6kK\n\n--{MM}--\n",
    "multipart-preamble-epilogue": "Content-Type: multipart/mixed; boundary=B\n\npreamble line\n\n--B\n\nx\n--B--\nepilogue\n",
    "multipart-missing-close": "Content-Type: multipart/mixed; boundary=B\n\n--B\n\nfirst\n--B\nContent-Type: text/cloud-config\n\nlast runs to the end\n",
    "multipart-no-boundary-param": "Content-Type: multipart/mixed\n\n--B\n\nx\n--B--\n",
    "multipart-boundary-never-appears": "Content-Type: multipart/mixed; boundary=ZZZ\n\n--B\n\nx\n--B--\n",
    "multipart-close-in-preamble": "Content-Type: multipart/mixed; boundary=B\n\npre\n--B--\nafter is dropped\n",
    "multipart-empty-boundary": "Content-Type: multipart/mixed; boundary=\"\"\n\n--\n\nx\n----\n",
    "multipart-transport-padding": "Content-Type: multipart/mixed; boundary=B\n\n--B \t\n\nx\n--B--  \n",
    "multipart-boundary-junk-suffix": "Content-Type: multipart/mixed; boundary=B\n\n--B\n\nx\n--Bjunk\n--B--x\n--B--\n",
    "multipart-double-boundary": "Content-Type: multipart/mixed; boundary=B\n\n--B\n--B\n\nx\n--B--\n",
    "multipart-separator-then-close": "Content-Type: multipart/mixed; boundary=B\n\n--B\n--B--\n",
    "multipart-part-no-headers": "Content-Type: multipart/mixed; boundary=B\n\n--B\n\nno headers\n--B\nno blank line either\n--B--\n",
    "multipart-empty-parts": "Content-Type: multipart/mixed; boundary=B\n\n--B\n\n--B\n--B\n\n\n--B--\n",
    "multipart-nested": "Content-Type: multipart/mixed; boundary=O\n\n--O\nContent-Type: multipart/alternative; boundary=I\n\ninner pre\n--I\n\na\n--I\n\nb\n--I--\ninner epilogue\n\n--O\n\nc\n--O--\n",
    "multipart-nested-outer-ends-inner": "Content-Type: multipart/mixed; boundary=O\n\n--O\nContent-Type: multipart/mixed; boundary=I\n\n--I\n\na\n--O\n\nb\n--O--\n",
    "multipart-boundary-prefix": "Content-Type: multipart/mixed; boundary=A\n\n--A\nContent-Type: multipart/mixed; boundary=AA\n\n--AA\n\nx\n--AA--\n--A--\n",
    "multipart-digest": "Content-Type: multipart/digest; boundary=D\n\n--D\n\nSubject: inner\n\ninner body\n--D\nContent-Type: text/plain\n\nplain\n--D--\n",
    "multipart-bad-cte": "Content-Type: multipart/mixed; boundary=B\nContent-Transfer-Encoding: base64\n\n--B\n\nx\n--B--\n",
    "multipart-rfc2231-boundary": "Content-Type: multipart/mixed; boundary*0=\"A\"; boundary*1=\"B\"\n\n--AB\n\nx\n--AB--\n",
    "multipart-rfc2231-boundary-mixed": "Content-Type: multipart/mixed; boundary*=''B; boundary*0=C\n\n--B\n\nx\n--B--\n",
    "multipart-boundary-trailing-space": "Content-Type: multipart/mixed; boundary=\"B  \"\n\n--B\n\nx\n--B--\n",
    "multipart-no-trailing-newline": "Content-Type: multipart/mixed; boundary=B\n\n--B\n\nx\n--B--",
    "multipart-lowercase-header": "content-type: MULTIPART/Mixed; BOUNDARY=\"b\"\n\n--b\n\nx\n--b--\n",
    # --- message/* ---------------------------------------------------------
    "message-rfc822": "Content-Type: message/rfc822\n\nSubject: inner\nContent-Type: text/plain\n\ninner body\n",
    "message-rfc822-in-multipart": "Content-Type: multipart/mixed; boundary=B\n\n--B\nContent-Type: message/rfc822\n\nContent-Type: text/cloud-config\n\n#cloud-config\na: 1\n--B--\n",
    "message-delivery-status": "Content-Type: message/delivery-status\n\nReporting-MTA: x\n\nAction: failed\nStatus: 5.0.0\n\n",
    # --- transfer encodings -------------------------------------------------
    "b64-clean": "Content-Transfer-Encoding: base64\n\nI2Nsb3VkLWNvbmZpZwo=\n",
    "b64-no-padding": "Content-Transfer-Encoding: base64\n\naGVsbG8\n",
    "b64-garbage-chars": "Content-Transfer-Encoding: base64\n\naGV*sbG8=!\n",
    "b64-impossible-length": "Content-Transfer-Encoding: base64\n\naGVsb\n",
    "b64-data-after-padding": "Content-Transfer-Encoding: base64\n\nQQ==QUJD\n",
    "b64-upper-cte": "Content-Transfer-Encoding: BASE64\n\naGk=\n",
    "b64-nonascii-body": "Content-Transfer-Encoding: base64\n\naGk\u00e9=\n",
    "qp-basic": "Content-Transfer-Encoding: quoted-printable\n\ncaf=C3=A9 =e2=82=ac soft=\nbreak =3D\n",
    "qp-invalid-escapes": "Content-Transfer-Encoding: quoted-printable\n\n=G1 =4 == = \n=\rgone\nkept=",
    "uu-basic": "Content-Transfer-Encoding: x-uuencode\n\nbegin 644 hi.txt\n#:&D*\n`\nend\n",
    "uu-no-begin": "Content-Transfer-Encoding: uuencode\n\n#:&D*\nend\n",
    "uu-bad-mode": "Content-Transfer-Encoding: uue\n\nbegin 9x f\nbegin 0o644 f\n#:&D*\nend\n",
    "uu-truncated": "Content-Transfer-Encoding: x-uue\n\nbegin 644 f\n#:&D*\n\n",
    "cte-unknown": "Content-Transfer-Encoding: gzip\n\nraw \u00e9\n",
    # --- the 8-bit quirk ---------------------------------------------------
    "8bit-latin1-range": "Content-Type: text/cloud-config\n\na: caf\u00e9\n",
    "8bit-bmp": "Content-Type: text/cloud-config\n\na: \u20ac\n",
    "8bit-astral": "Content-Type: text/plain\nContent-Transfer-Encoding: 8bit\n\n\U0001f600\n",
    "7bit-declared-nonascii": "Content-Transfer-Encoding: 7bit\n\n\u00e9\u20ac\n",
}


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "mime")
    os.makedirs(out, exist_ok=True)
    for name, doc in CASES.items():
        with open(os.path.join(out, name + ".eml"), "w", encoding="utf-8", newline="") as f:
            f.write(doc)
        with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(mime_oracle.describe(doc), f, ensure_ascii=False, indent=1, sort_keys=True)
            f.write("\n")
    print(f"{len(CASES)} fixtures written to {os.path.normpath(out)}")


if __name__ == "__main__":
    main()
