//! The benches' ~5 MB cloud-config-like document, built deterministically (a fixed LCG
//! seed) so no big file is committed: top-level keys, `packages`/`runcmd` lists,
//! `write_files` entries with multi-line literal content, `users` with nested maps,
//! quoted and plain scalars, numbers/booleans/nulls, and a few anchors and aliases.
//! Shared by `benches/yaml.rs` and `examples/yaml_cpu.rs`.

use std::fmt::Write as _;

/// Target size of the generated document.
const TARGET_BYTES: usize = 5 * 1024 * 1024;

/// A tiny deterministic generator (Knuth's MMIX LCG): same document every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        let i = self.below(xs.len() as u64) as usize;
        xs.get(i).copied().unwrap_or_default()
    }
}

const WORDS: &[&str] = &[
    "nginx",
    "curl",
    "git",
    "htop",
    "vim",
    "python3",
    "jq",
    "unzip",
    "docker.io",
    "tmux",
    "openssh-server",
    "fail2ban",
    "rsync",
    "chrony",
    "postgresql-client",
    "build-essential",
];
const CMDS: &[&str] = &[
    "systemctl restart nginx",
    "echo 'hello world' > /tmp/hello",
    "[ sh, -c, 'echo $HOSTNAME >> /var/log/boot.log' ]",
    "mkdir -p /srv/app/data",
    "chown -R app:app /srv/app",
    "curl -fsSL https://example.com/install.sh | bash -s -- --yes",
    "sed -i 's/^#PermitRootLogin.*/PermitRootLogin no/' /etc/ssh/sshd_config",
];
const LINES: &[&str] = &[
    "server {",
    "    listen 80 default_server;",
    "    root /var/www/html;",
    "    location / { try_files $uri $uri/ =404; }",
    "}",
    "# comment: with a colon and 'quotes'",
    "export PATH=/usr/local/bin:$PATH",
    "key = \"value\" # trailing",
    "[section]",
    "enabled=true",
];

/// The generated cloud-config-like document.
pub(crate) fn document() -> String {
    let mut r = Lcg(0x5eed_c10d_f01d);
    let mut s = String::with_capacity(TARGET_BYTES + 64 * 1024);
    s.push_str("#cloud-config\n");
    s.push_str(
        "defaults: &defaults\n  shell: /bin/bash\n  lock_passwd: true\n  groups: [adm, sudo]\n",
    );
    s.push_str("hostname: bench-host\nfqdn: bench-host.example.com\nmanage_etc_hosts: true\n");
    s.push_str("timezone: \"Europe/Berlin\"\nssh_pwauth: false\npackage_update: yes\n");
    let mut block = 0u64;
    while s.len() < TARGET_BYTES {
        block += 1;
        // A run of plain keys with mixed scalar types.
        for i in 0..8 {
            let _ = match r.below(6) {
                0 => writeln!(s, "key_{block}_{i}: {}", r.below(1_000_000)),
                1 => writeln!(s, "key_{block}_{i}: {}.{}", r.below(1000), r.below(100)),
                2 => writeln!(
                    s,
                    "key_{block}_{i}: {}",
                    r.pick(&["true", "false", "null", "~", "off"])
                ),
                3 => writeln!(s, "key_{block}_{i}: \"quoted {} \\t value\"", r.pick(WORDS)),
                4 => writeln!(s, "key_{block}_{i}: 'single {} ''q'''", r.pick(WORDS)),
                _ => writeln!(
                    s,
                    "key_{block}_{i}: plain text {} and {}",
                    r.pick(WORDS),
                    r.pick(WORDS)
                ),
            };
        }
        let _ = writeln!(s, "packages_{block}:");
        for _ in 0..(5 + r.below(10)) {
            let _ = writeln!(s, "  - {}", r.pick(WORDS));
        }
        let _ = writeln!(
            s,
            "  - [{}, '{}.{}']",
            r.pick(WORDS),
            r.below(10),
            r.below(10)
        );
        let _ = writeln!(s, "runcmd_{block}:");
        for _ in 0..(3 + r.below(6)) {
            let _ = writeln!(s, "  - {}", r.pick(CMDS));
        }
        let _ = writeln!(s, "write_files_{block}:");
        for f in 0..(1 + r.below(3)) {
            let _ = writeln!(s, "  - path: /etc/app/{block}/file{f}.conf");
            let _ = writeln!(s, "    owner: 'root:root'");
            let _ = writeln!(s, "    permissions: '0644'");
            // A first line without leading spaces fixes the block's indentation.
            let _ = writeln!(s, "    content: |\n      # generated {block}/{f}");
            for _ in 0..(4 + r.below(12)) {
                let _ = writeln!(s, "      {}", r.pick(LINES));
            }
        }
        let _ = writeln!(s, "users_{block}:");
        let _ = writeln!(s, "  - default");
        for u in 0..(1 + r.below(3)) {
            let _ = writeln!(s, "  - name: user{block}x{u}");
            if r.below(4) == 0 {
                let _ = writeln!(s, "    <<: *defaults");
            } else {
                let _ = writeln!(
                    s,
                    "    sudo: \"ALL=(ALL) NOPASSWD:ALL\"\n    shell: /bin/sh"
                );
            }
            let _ = writeln!(s, "    ssh_authorized_keys:");
            let _ = writeln!(
                s,
                "      - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{:016x}{:016x} user{u}@host",
                r.next(),
                r.next()
            );
            let _ = writeln!(
                s,
                "    meta: {{uid: {}, home: /home/user{u}, tags: [a, b]}}",
                1000 + u
            );
        }
    }
    s
}
