//! `cloudfold seed` against independent readers: generated seeds (random payloads of 0 bytes to
//! 2 MiB, every option, all three forms) are read back by xorriso, isoinfo (Joliet and Rock
//! Ridge names, volume id), mtools and fsck.fat (FAT, label) and blkid (label and type); every
//! extracted file must be byte-identical to its input. cloud-init's own NoCloud datasource
//! (22.4.2 and 25.1.4, scripts/nocloud_oracle.py) reads each dir form and each image's
//! extracted files and must get the same user-data, meta-data, network-config and
//! vendor-data. A sample is compared with `cloud-localds` (file set and names, volume label),
//! and rebuilt to check that the same inputs give the same bytes.
//!
//! `CLOUDFOLD_SEED_CASES` seeds (default 12; CI runs 500 in scripts/conformance.sh). Tools are spawned per image, never
//! per file; blkid once for all images; one Python process per release for all directories.

use crate::support;

use serde_json::{Value as J, json};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use support::rng::Rng;

const TOOLS: &[&str] = &[
    "xorriso",
    "isoinfo",
    "mcopy",
    "mlabel",
    "fsck.fat",
    "blkid",
    "cloud-localds",
    "genisoimage",
    "mkfs.vfat",
];

/// `name` on PATH or in the sbin directories (blkid, fsck.fat live there).
fn find_tool(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin"].map(PathBuf::from))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Every tool; a missing one fails the test.
fn tools() -> BTreeMap<&'static str, PathBuf> {
    let found: BTreeMap<_, _> = TOOLS
        .iter()
        .filter_map(|t| Some((*t, find_tool(t)?)))
        .collect();
    let missing: Vec<_> = TOOLS.iter().filter(|t| !found.contains_key(*t)).collect();
    assert!(
        missing.is_empty(),
        "tools missing: {missing:?} (apt-get install xorriso genisoimage mtools dosfstools util-linux cloud-image-utils)"
    );
    found
}

/// The binary under test: `CLOUDFOLD_BIN` (CI: the release build), else this build's.
fn bin() -> PathBuf {
    std::env::var_os("CLOUDFOLD_BIN").map_or_else(support::cloudfold_bin, PathBuf::from)
}

fn run_ok(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// One generated seed: the command line and what each file must hold.
#[derive(Debug)]
struct Case {
    id: usize,
    format: &'static str,
    out: PathBuf,
    args: Vec<String>,
    files: BTreeMap<&'static str, Vec<u8>>,
    instance_id: String,
    hostname: Option<String>,
    network: Option<J>,
}

fn printable(r: &mut Rng, n: usize) -> String {
    const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.";
    (0..n).map(|_| *r.pick(CHARS) as char).collect()
}

/// 0 bytes, 2 MiB, or log-uniform between.
fn size(r: &mut Rng) -> usize {
    match r.below(10) {
        0 => 0,
        1 => 2 << 20,
        _ => {
            let bits = 1 + r.below(21);
            (1usize << (bits - 1)) + r.below(1 << (bits - 1))
        }
    }
}

/// A valid cloud-config of exactly `n` bytes (at least its header), padded with comments.
fn cloud_config(r: &mut Rng, n: usize) -> Vec<u8> {
    let mut s = format!("#cloud-config\nruncmd:\n  - echo {}\n", r.below(1000)).into_bytes();
    while s.len() < n {
        let len = 1 + r.below(100);
        let line = format!("# {}\n", printable(r, len));
        s.extend_from_slice(line.as_bytes());
    }
    s.truncate(n.max(14));
    s
}

fn random_bytes(r: &mut Rng, n: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(n + 8);
    while v.len() < n {
        v.extend_from_slice(&r.next_u64().to_le_bytes());
    }
    v.truncate(n);
    v
}

/// Network configuration as JSON (which YAML reads the same): what cloud-init must load.
fn network(r: &mut Rng) -> J {
    let eth = json!({"eth0": {"dhcp4": r.chance(50), "match": {"macaddress": format!("52:54:00:{:02x}:{:02x}:{:02x}", r.below(256), r.below(256), r.below(256))}}});
    let v = if r.chance(50) {
        json!({"version": 2, "ethernets": eth})
    } else {
        json!({"version": 1, "config": [{"type": "physical", "name": "eth0", "subnets": [{"type": "dhcp"}]}]})
    };
    if r.chance(25) {
        json!({"network": v})
    } else {
        v
    }
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

fn generate(r: &mut Rng, id: usize, dir: &Path, bin: &Path) -> Case {
    let inputs = dir.join(format!("in-{id}"));
    std::fs::create_dir_all(&inputs).unwrap();
    let format = ["iso", "vfat", "dir"][id % 3];
    let ext = match format {
        "iso" => ".iso",
        "vfat" => ".img",
        _ => "",
    };
    let out = dir.join(format!("seed-{id}{ext}"));
    let mut args: Vec<String> = vec![
        "seed".into(),
        out.to_string_lossy().into(),
        "--format".into(),
        format.into(),
    ];
    let mut files = BTreeMap::new();
    // The user-data: one file used as it is, or parts that `build` assembles.
    let user_data = if r.chance(20) {
        let parts = [
            (
                "a.yaml",
                format!(
                    "#cloud-config\nwrite_files:\n  - path: /x\n    content: {}\n",
                    printable(r, 30).trim()
                ),
                "cloud-config",
            ),
            (
                "b.sh",
                format!("#!/bin/sh\necho {}\n", printable(r, 20)),
                "x-shellscript",
            ),
            (
                "c.yaml",
                "#cloud-config\npackages: [jq]\n".to_owned(),
                "cloud-config",
            ),
        ];
        let n = 2 + r.below(2);
        let mut build_args: Vec<String> = vec!["build".into()];
        let mut ud_args = Vec::new();
        for (name, content, ty) in parts.iter().take(n) {
            let p = write(&inputs, name, content.as_bytes());
            let arg = if r.chance(50) { format!("{p}:{ty}") } else { p };
            build_args.push(arg.clone());
            ud_args.push(arg);
        }
        let mut layout = Vec::new();
        if r.chance(50) {
            layout.extend(["--merge-type".to_owned(), "append".to_owned()]);
        }
        if r.chance(30) {
            layout.extend(["--style".to_owned(), "terraform".to_owned()]);
        }
        if r.chance(30) {
            layout.push("--gzip".to_owned());
        }
        build_args.extend(layout.iter().cloned());
        let built = run_ok(Command::new(bin).args(&build_args)).stdout;
        args.push("--user-data".into());
        args.extend(ud_args);
        args.extend(layout);
        built
    } else {
        let n = size(r);
        let ud = match r.below(3) {
            0 => random_bytes(r, n),
            _ => cloud_config(r, n),
        };
        args.extend(["--user-data".into(), write(&inputs, "user-data.in", &ud)]);
        ud
    };
    // Random bytes (and an empty payload) have validation errors: written with --force.
    args.push("--force".into());
    files.insert("user-data", user_data.clone());
    let network = match r.below(3) {
        0 => None,
        1 => {
            args.extend(["--network-config".into(), "none".into()]);
            files.insert("network-config", b"config: disabled\n".to_vec());
            Some(json!({"config": "disabled"}))
        }
        _ => {
            let n = network(r);
            let text = serde_json::to_vec_pretty(&n).unwrap();
            args.extend(["--network-config".into(), write(&inputs, "net.json", &text)]);
            files.insert("network-config", text);
            Some(n)
        }
    };
    let vendor = r.chance(50).then(|| {
        let n = r.below(64 << 10);
        let v = if r.chance(50) {
            random_bytes(r, n)
        } else {
            cloud_config(r, n)
        };
        args.extend(["--vendor-data".into(), write(&inputs, "vendor.in", &v)]);
        files.insert("vendor-data", v.clone());
        v
    });
    let hostname = r.chance(50).then(|| format!("vm-{}", r.below(10_000)));
    let (instance_id, meta) = match r.below(3) {
        0 => {
            let id = format!("i-{:016x}", r.next_u64());
            let mut m = format!("instance-id: {id}\n");
            if let Some(h) = &hostname {
                m.push_str(&format!("local-hostname: {h}\n"));
            }
            args.extend([
                "--meta-data".into(),
                write(&inputs, "meta.yaml", m.as_bytes()),
            ]);
            (id, m.into_bytes())
        }
        k => {
            let id = if k == 1 {
                let id = format!("iid-{}", printable(r, 8).replace([' ', '.'], "x"));
                args.extend(["--instance-id".into(), id.clone()]);
                id
            } else {
                let net = files.get("network-config").map(Vec::as_slice);
                cloudfold::seed::default_instance_id(
                    &user_data,
                    net,
                    vendor.as_deref(),
                    hostname.as_deref(),
                )
            };
            if let Some(h) = &hostname {
                args.extend(["--hostname".into(), h.clone()]);
            }
            let mut m = format!("instance-id: \"{id}\"\n");
            if let Some(h) = &hostname {
                m.push_str(&format!("local-hostname: \"{h}\"\n"));
            }
            (id, m.into_bytes())
        }
    };
    files.insert("meta-data", meta);
    Case {
        id,
        format,
        out,
        args,
        files,
        instance_id,
        hostname,
        network,
    }
}

/// The files of a directory, by name.
fn read_tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

fn same_files(
    what: &str,
    got: &BTreeMap<String, Vec<u8>>,
    want: &BTreeMap<&'static str, Vec<u8>>,
) -> Result<(), String> {
    let got_names: Vec<&str> = got.keys().map(String::as_str).collect();
    let want_names: Vec<&str> = want.keys().copied().collect();
    if got_names != want_names {
        return Err(format!("{what}: files {got_names:?}, want {want_names:?}"));
    }
    for (name, bytes) in want {
        if got[*name] != *bytes {
            return Err(format!(
                "{what}: {name} differs ({} vs {} bytes)",
                got[*name].len(),
                bytes.len()
            ));
        }
    }
    Ok(())
}

/// isoinfo's `-l` listing: (name, size) of the root's files.
fn isoinfo_listing(tools: &BTreeMap<&str, PathBuf>, img: &Path, flag: &str) -> Vec<(String, u64)> {
    let out = run_ok(
        Command::new(&tools["isoinfo"])
            .args([flag, "-l", "-i"])
            .arg(img),
    )
    .stdout;
    String::from_utf8_lossy(&out)
        .lines()
        .filter(|l| l.starts_with('-'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            // mode links uid gid size month day year [ extent flags ] name
            Some((f.last()?.to_string(), f.get(4)?.parse().ok()?))
        })
        .collect()
}

/// Extract an image's root into `dest` with the independent tools; check its names, label and
/// filesystem with them too. Returns the label the tools report.
fn extract(
    tools: &BTreeMap<&str, PathBuf>,
    img: &Path,
    iso: bool,
    dest: &Path,
) -> Result<String, String> {
    std::fs::create_dir_all(dest).unwrap();
    if iso {
        run_ok(
            Command::new(&tools["xorriso"])
                .args(["-osirrox", "on", "-indev"])
                .arg(img)
                .args(["-extract", "/"])
                .arg(dest),
        );
        let d = String::from_utf8_lossy(
            &run_ok(Command::new(&tools["isoinfo"]).args(["-d", "-i"]).arg(img)).stdout,
        )
        .into_owned();
        if !d.contains("Joliet with UCS level 3 found")
            || !d.contains("Rock Ridge signatures version 1 found")
        {
            return Err(format!(
                "{}: isoinfo -d: no Joliet or Rock Ridge:\n{d}",
                img.display()
            ));
        }
        let label = d
            .lines()
            .find_map(|l| l.strip_prefix("Volume id: "))
            .unwrap_or("")
            .to_owned();
        let mut rr = isoinfo_listing(tools, img, "-R");
        let mut joliet = isoinfo_listing(tools, img, "-J");
        rr.sort();
        joliet.sort();
        if rr != joliet {
            return Err(format!(
                "{}: Rock Ridge {rr:?} vs Joliet {joliet:?}",
                img.display()
            ));
        }
        let extracted: Vec<(String, u64)> = read_tree(dest)
            .into_iter()
            .map(|(n, b)| (n, b.len() as u64))
            .collect();
        if joliet != extracted {
            return Err(format!(
                "{}: Joliet {joliet:?} vs extracted {extracted:?}",
                img.display()
            ));
        }
        Ok(label)
    } else {
        let fsck = Command::new(&tools["fsck.fat"])
            .arg("-n")
            .arg(img)
            .output()
            .unwrap();
        if !fsck.status.success() {
            return Err(format!(
                "{}: fsck.fat -n: {}",
                img.display(),
                String::from_utf8_lossy(&fsck.stdout)
            ));
        }
        run_ok(
            Command::new(&tools["mcopy"])
                .arg("-n")
                .arg("-i")
                .arg(img)
                .arg("::/*")
                .arg(dest),
        );
        let l = String::from_utf8_lossy(
            &run_ok(
                Command::new(&tools["mlabel"])
                    .arg("-s")
                    .arg("-i")
                    .arg(img)
                    .arg("::"),
            )
            .stdout,
        )
        .into_owned();
        Ok(l.trim()
            .strip_prefix("Volume label is ")
            .unwrap_or(l.trim())
            .trim()
            .to_owned())
    }
}

/// blkid's LABEL and TYPE of each image, one process for all.
fn blkid(tools: &BTreeMap<&str, PathBuf>, imgs: &[PathBuf]) -> BTreeMap<PathBuf, (String, String)> {
    let mut out = BTreeMap::new();
    for chunk in imgs.chunks(200) {
        let o = run_ok(
            Command::new(&tools["blkid"])
                .args(["-p", "-o", "export"])
                .args(chunk),
        )
        .stdout;
        let text = String::from_utf8_lossy(&o).into_owned();
        for block in text.split("\n\n") {
            let kv: BTreeMap<&str, &str> =
                block.lines().filter_map(|l| l.split_once('=')).collect();
            if let Some(dev) = kv.get("DEVNAME") {
                out.insert(
                    PathBuf::from(dev),
                    (
                        kv.get("LABEL").unwrap_or(&"").to_string(),
                        kv.get("TYPE").unwrap_or(&"").to_string(),
                    ),
                );
            }
        }
    }
    out
}

/// What cloud-init's NoCloud code read from each directory, per release (the values it read
/// are dumped into `dumps/<key>/`).
fn cloud_init_reads(
    release: &str,
    dirs: &[(String, PathBuf)],
    dumps: &Path,
    shared: &Path,
) -> BTreeMap<String, J> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/nocloud_oracle.py");
    let mut child = Command::new("python3")
        .args([script, "--release", release])
        .env("CLOUDFOLD_SHARED", shared)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let lines: Vec<String> = dirs
        .iter()
        .map(|(k, d)| json!({"id": k, "dir": d, "dump": dumps.join(k)}).to_string())
        .collect();
    let writer = std::thread::spawn(move || {
        for l in lines {
            writeln!(stdin, "{l}").unwrap();
        }
    });
    let mut out = BTreeMap::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let v: J = serde_json::from_str(&line.unwrap()).unwrap();
        out.insert(v["id"].as_str().unwrap().to_owned(), v);
    }
    writer.join().unwrap();
    assert!(
        child.wait().unwrap().success(),
        "nocloud_oracle.py --release {release} failed"
    );
    out
}

/// cloud-init's reading of one directory against the case (`dump`: the values it read).
fn check_cloud_init(c: &Case, got: &J, dump: &Path) -> Result<(), String> {
    if let Some(e) = got.get("error") {
        return Err(format!("cloud-init raised: {e}"));
    }
    if got["found"] != json!(true) {
        return Err("NoCloud found no seed".into());
    }
    // Each value read: its type and bytes, or None.
    let read = |name: &str| -> Option<(String, Vec<u8>)> {
        let r = &got["read"][name];
        let ty = r.get("type")?.as_str()?.to_owned();
        Some((ty, std::fs::read(dump.join(name)).unwrap()))
    };
    let ud = c.files["user-data"].clone();
    let vd = c.files.get("vendor-data").cloned();
    let bytes = |v: Vec<u8>| Some(("bytes".to_owned(), v));
    let reads = [
        (
            "user-data (datasource)",
            read("ds.user-data"),
            bytes(ud.clone()),
        ),
        // The datasource's default for a missing vendor-data is "".
        (
            "vendor-data (datasource)",
            read("ds.vendor-data"),
            vd.clone()
                .map_or(Some(("str".to_owned(), Vec::new())), bytes),
        ),
        (
            "user-data (read_seeded)",
            read("seeded.user-data"),
            bytes(ud),
        ),
        (
            "vendor-data (read_seeded)",
            read("seeded.vendor-data"),
            vd.and_then(bytes),
        ),
    ];
    for (what, g, w) in reads {
        if g != w {
            let show = |v: &Option<(String, Vec<u8>)>| {
                v.as_ref().map(|(t, b)| format!("{t} of {} bytes", b.len()))
            };
            return Err(format!(
                "{what}: cloud-init read {:?}, want {:?}",
                show(&g),
                show(&w)
            ));
        }
    }
    let md = &got["metadata"];
    let checks = [
        (
            "instance-id",
            md["instance-id"].clone(),
            json!(c.instance_id),
        ),
        (
            "local-hostname",
            md.get("local-hostname").cloned().unwrap_or(J::Null),
            json!(c.hostname),
        ),
        (
            "network-config",
            got["network_config"].clone(),
            c.network.clone().unwrap_or(J::Null),
        ),
        (
            "network disabled",
            got["network_disabled"].clone(),
            json!(
                c.network
                    .as_ref()
                    .is_some_and(|n| n == &json!({"config": "disabled"}))
            ),
        ),
        (
            "read_seeded instance-id",
            got["seeded"]["metadata"]["instance-id"].clone(),
            json!(c.instance_id),
        ),
    ];
    for (what, g, w) in checks {
        if g != w {
            let short = |v: &J| v.to_string().chars().take(120).collect::<String>();
            return Err(format!(
                "{what}: cloud-init read {}, want {}",
                short(&g),
                short(&w)
            ));
        }
    }
    Ok(())
}

#[test]
#[ignore = "needs ../shared (the extracted cloud-init), xorriso, genisoimage, mtools, dosfstools, cloud-image-utils and the cloudfold binary: scripts/conformance.sh runs it"]
fn seeds_read_back_by_tools_and_cloud_init() {
    let tools = tools();
    let oracle = support::shared("oracle/ci_oracle.py");
    let shared = oracle.parent().unwrap().parent().unwrap().to_path_buf();
    let n: usize = std::env::var("CLOUDFOLD_SEED_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let bin = &bin();
    let dir = std::env::temp_dir().join(format!("cloudfold-seed-oracle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let t0 = std::time::Instant::now();

    let mut r = Rng::new(0x5eed);
    let mut cases = Vec::new();
    for id in 0..n {
        let c = generate(&mut r, id, &dir, bin);
        run_ok(
            Command::new(bin)
                .args(&c.args)
                .env_remove("SOURCE_DATE_EPOCH"),
        );
        cases.push(c);
    }
    let t_gen = t0.elapsed();
    let mut failures = Vec::new();
    let mut dirs = Vec::new();
    let mut imgs = Vec::new();
    let (mut tool_checks, mut bytes) = (0usize, 0u64);
    for c in &cases {
        bytes += c.files.values().map(|v| v.len() as u64).sum::<u64>();
        if c.format == "dir" {
            let mode = std::fs::metadata(&c.out)
                .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o777);
            if let Err(e) = same_files("dir", &read_tree(&c.out), &c.files) {
                failures.push(format!("case {}: {e}", c.id));
            }
            assert_eq!(mode.unwrap(), 0o700);
            dirs.push((format!("{}-dir", c.id), c.out.clone()));
            continue;
        }
        imgs.push(c.out.clone());
        let dest = dir.join(format!("x-{}", c.id));
        match extract(&tools, &c.out, c.format == "iso", &dest) {
            Ok(label) => {
                tool_checks += 1;
                let want = if c.format == "iso" {
                    "cidata"
                } else {
                    "CIDATA"
                };
                if label != want {
                    failures.push(format!("case {}: label {label:?}, want {want}", c.id));
                }
                if let Err(e) = same_files(c.format, &read_tree(&dest), &c.files) {
                    failures.push(format!("case {}: {e}", c.id));
                }
                dirs.push((format!("{}-{}", c.id, c.format), dest));
            }
            Err(e) => failures.push(format!("case {}: {e}", c.id)),
        }
    }
    for (img, (label, ty)) in blkid(&tools, &imgs) {
        let want = if img.extension().is_some_and(|e| e == "iso") {
            ("cidata", "iso9660")
        } else {
            ("CIDATA", "vfat")
        };
        if (label.as_str(), ty.as_str()) != want {
            failures.push(format!(
                "{}: blkid LABEL={label} TYPE={ty}, want {want:?}",
                img.display()
            ));
        }
    }
    let t_tools = t0.elapsed();

    // cloud-init's NoCloud datasource over every dir form and every image's extracted files.
    let by_key: BTreeMap<String, &Case> = dirs
        .iter()
        .map(|(k, _)| {
            (
                k.clone(),
                &cases[k.split('-').next().unwrap().parse::<usize>().unwrap()],
            )
        })
        .collect();
    for release in ["bookworm", "trixie"] {
        let dumps = dir.join(format!("read-{release}"));
        let reads = cloud_init_reads(release, &dirs, &dumps, &shared);
        let mut agree = 0;
        for (k, c) in &by_key {
            match reads
                .get(k)
                .ok_or_else(|| "no answer".to_owned())
                .and_then(|g| check_cloud_init(c, g, &dumps.join(k)))
            {
                Ok(()) => agree += 1,
                Err(e) => failures.push(format!("{k} [{release}]: {e}")),
            }
        }
        eprintln!(
            "seed: cloud-init NoCloud ({release}): {agree}/{} seed directories read as written",
            by_key.len()
        );
        std::fs::remove_dir_all(&dumps).unwrap();
    }
    let t_ci = t0.elapsed();

    // Determinism: the images rebuilt from the same inputs, byte for byte.
    let mut rebuilt = 0;
    for c in cases.iter().filter(|c| c.format != "dir").take(60) {
        let again = dir.join(format!("again-{}", c.id));
        let mut args = c.args.clone();
        args[1] = again.to_string_lossy().into_owned();
        run_ok(
            Command::new(bin)
                .args(&args)
                .env_remove("SOURCE_DATE_EPOCH"),
        );
        if std::fs::read(&again).unwrap() != std::fs::read(&c.out).unwrap() {
            failures.push(format!("case {}: a second run gave other bytes", c.id));
        }
        rebuilt += 1;
        std::fs::remove_file(&again).unwrap();
    }

    // cloud-localds on the same inputs (small payloads: its FAT image is a fixed 128 KiB).
    let mut compared = 0;
    for c in cases
        .iter()
        .filter(|c| c.format != "dir" && c.files.values().map(Vec::len).sum::<usize>() < (60 << 10))
        .take(16)
    {
        let inputs = dir.join(format!("localds-in-{}", c.id));
        std::fs::create_dir_all(&inputs).unwrap();
        let mut cmd = Command::new(&tools["cloud-localds"]);
        let theirs = dir.join(format!("localds-{}.img", c.id));
        cmd.arg("-f")
            .arg(if c.format == "iso" { "iso" } else { "vfat" });
        if let Some(n) = c.files.get("network-config") {
            cmd.arg("-N").arg(write(&inputs, "network-config", n));
        }
        if let Some(v) = c.files.get("vendor-data") {
            cmd.arg("-V").arg(write(&inputs, "vendor-data", v));
        }
        cmd.arg(&theirs)
            .arg(write(&inputs, "user-data", &c.files["user-data"]))
            .arg(write(&inputs, "meta-data", &c.files["meta-data"]));
        run_ok(&mut cmd);
        let dest = dir.join(format!("localds-x-{}", c.id));
        let their_label = extract(&tools, &theirs, c.format == "iso", &dest);
        let ours: Vec<String> = read_tree(&dir.join(format!("x-{}", c.id)))
            .into_keys()
            .collect();
        let theirs_names: Vec<String> = read_tree(&dest).into_keys().collect();
        let (their_blkid, our_blkid) = {
            let b = blkid(&tools, &[theirs.clone(), c.out.clone()]);
            (b[&theirs].clone(), b[&c.out].clone())
        };
        // Same files under the same names; the same label (FAT: cloud-localds writes
        // `cidata`, we write `CIDATA`: NoCloud looks for both cases); the same type.
        if ours != theirs_names
            || !their_label
                .as_deref()
                .unwrap_or("")
                .eq_ignore_ascii_case(&our_blkid.0)
            || !their_blkid.0.eq_ignore_ascii_case(&our_blkid.0)
            || their_blkid.1 != our_blkid.1
        {
            failures.push(format!(
                "case {} vs cloud-localds: files {ours:?} / {theirs_names:?}, label {our_blkid:?} / {their_blkid:?} ({their_label:?})",
                c.id
            ));
        }
        compared += 1;
    }
    let t_all = t0.elapsed();
    eprintln!(
        "seed: {n} seeds ({} iso, {} vfat, {} dir; {:.1} MiB of files): {tool_checks} images read back by xorriso/isoinfo or mtools/fsck.fat, {} by blkid; \
         {rebuilt} rebuilt byte-identical; {compared} compared with cloud-localds; \
         generate {:.1}s, tools {:.1}s, cloud-init {:.1}s, total {:.1}s",
        cases.iter().filter(|c| c.format == "iso").count(),
        cases.iter().filter(|c| c.format == "vfat").count(),
        cases.iter().filter(|c| c.format == "dir").count(),
        bytes as f64 / f64::from(1 << 20),
        imgs.len(),
        t_gen.as_secs_f64(),
        (t_tools - t_gen).as_secs_f64(),
        (t_ci - t_tools).as_secs_f64(),
        t_all.as_secs_f64(),
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Images made by other tools read back through `parts`/`render`: genisoimage with Joliet and
/// Rock Ridge, with Joliet only, xorriso, and mkfs.fat + mcopy; a plain ISO 9660 image (8.3
/// names only) has no `user-data` for cloud-init either, and `render` says so.
#[test]
#[ignore = "needs xorriso, genisoimage, mtools, dosfstools and the cloudfold binary: scripts/conformance.sh runs it"]
fn other_tools_images_read_back() {
    let tools = tools();
    let bin = &bin();
    let dir = std::env::temp_dir().join(format!("cloudfold-seed-tools-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ud = b"#cloud-config\nruncmd: [echo from-other-tools]\n";
    std::fs::write(dir.join("user-data"), ud).unwrap();
    std::fs::write(dir.join("meta-data"), "instance-id: i-1\n").unwrap();
    let files = ["user-data", "meta-data"];
    let make: Vec<(&str, Vec<&str>, bool)> = vec![
        (
            "genisoimage-jr.iso",
            vec![
                "genisoimage",
                "-quiet",
                "-o",
                "genisoimage-jr.iso",
                "-V",
                "cidata",
                "-J",
                "-R",
            ],
            true,
        ),
        (
            "genisoimage-j.iso",
            vec![
                "genisoimage",
                "-quiet",
                "-o",
                "genisoimage-j.iso",
                "-V",
                "cidata",
                "-J",
            ],
            true,
        ),
        (
            "genisoimage-r.iso",
            vec![
                "genisoimage",
                "-quiet",
                "-o",
                "genisoimage-r.iso",
                "-V",
                "cidata",
                "-r",
            ],
            true,
        ),
        (
            "xorriso.iso",
            vec![
                "xorriso",
                "-as",
                "mkisofs",
                "-quiet",
                "-o",
                "xorriso.iso",
                "-V",
                "cidata",
                "-J",
                "-R",
            ],
            true,
        ),
        (
            "plain.iso",
            vec!["genisoimage", "-quiet", "-o", "plain.iso", "-V", "cidata"],
            false,
        ),
    ];
    for (img, cmd, ok) in make {
        run_ok(
            Command::new(&tools[cmd[0]])
                .current_dir(&dir)
                .args(&cmd[1..])
                .args(files),
        );
        let out = Command::new(bin)
            .current_dir(&dir)
            .args(["render", "--format", "json", img])
            .output()
            .unwrap();
        if ok {
            assert!(
                out.status.success(),
                "{img}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                String::from_utf8_lossy(&out.stdout).contains("from-other-tools"),
                "{img}"
            );
        } else {
            assert_eq!(out.status.code(), Some(2), "{img}");
            assert!(
                String::from_utf8_lossy(&out.stderr).contains("without user-data"),
                "{img}"
            );
        }
    }
    run_ok(
        Command::new("truncate")
            .current_dir(&dir)
            .args(["-s", "1M", "fat.img"]),
    );
    run_ok(
        Command::new(&tools["mkfs.vfat"])
            .current_dir(&dir)
            .args(["-n", "CIDATA", "fat.img"]),
    );
    run_ok(
        Command::new(&tools["mcopy"])
            .current_dir(&dir)
            .args(["-i", "fat.img"])
            .args(files)
            .arg("::"),
    );
    let out = Command::new(bin)
        .current_dir(&dir)
        .args(["parts", "fat.img"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(bin)
        .current_dir(&dir)
        .args(["render", "--format", "json", "fat.img"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("from-other-tools"));
    std::fs::remove_dir_all(&dir).unwrap();
}
