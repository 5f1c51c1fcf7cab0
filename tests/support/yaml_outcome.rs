//! Shared by the YAML loader tests: our outcome for a case in the oracle's
//! JSON shape (scripts/yaml_oracle.py), normalisation, and a streaming
//! python3 oracle process.

use base64::Engine;
use cloudfold::yaml::typed_json::{TypedJsonError, WalkLimits, canonical, to_typed_json};
use cloudfold::yaml::{LoadOptions, PyErrorClass, load, load_bytes};
use serde_json::{Value as J, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// One case: text (loaded as `str`) or bytes.
#[derive(Debug, Clone)]
pub(crate) enum Input {
    Text(String),
    Bytes(Vec<u8>),
}

impl Input {
    /// The oracle's request line.
    pub(crate) fn request(&self) -> J {
        match self {
            Input::Text(t) => json!({ "doc": t }),
            Input::Bytes(b) => {
                json!({ "b64": base64::engine::general_purpose::STANDARD.encode(b) })
            }
        }
    }

    /// From a corpus line.
    pub(crate) fn from_case(case: &J) -> Input {
        if let Some(t) = case.get("doc").and_then(J::as_str) {
            Input::Text(t.to_owned())
        } else {
            let b = case.get("b64").and_then(J::as_str).unwrap_or("");
            Input::Bytes(base64::engine::general_purpose::STANDARD.decode(b).unwrap())
        }
    }
}

/// Our outcome, in the oracle's shape.
pub(crate) fn outcome(input: &Input) -> J {
    let opts = LoadOptions::default();
    let res = match input {
        Input::Text(t) => load(t, &opts),
        Input::Bytes(b) => load_bytes(b, &opts),
    };
    // Every reader must build what the node graph builds (or decline).
    if let Input::Text(t) = input
        && let Err(why) = super::yaml_readers::readers_agree(t, &opts)
    {
        panic!("the loader's readers differ on {t:?}: {why}");
    }
    match res {
        Ok(None) => json!({ "ok": null }),
        Ok(Some(node)) => match to_typed_json(&node, WalkLimits::default()) {
            Ok(j) if json_depth(&j) > 100 => {
                json!({ "ok_text": serde_json::to_string(&j).unwrap_or_default() })
            }
            Ok(j) => json!({ "ok": j }),
            Err(TypedJsonError::Recursive) => json!({ "recursive": true }),
            Err(e) => json!({ "encode_error": e.to_string() }),
        },
        Err(e) => {
            let problem = if e.class == PyErrorClass::Recursion {
                "(recursion)".to_owned()
            } else {
                e.problem.clone()
            };
            json!({ "err": {
                "class": e.class.python_name(),
                "problem": problem,
                "line": e.mark.map(|m| m.line),
                "column": e.mark.map(|m| m.column),
                "context": e.context.as_ref().map(|c| c.0.clone()),
                "context_line": e.context.as_ref().map(|c| c.1.line),
                "context_column": e.context.as_ref().map(|c| c.1.column),
            }})
        }
    }
}

/// Nesting depth of a JSON value (the oracle sends deeper values as text).
pub(crate) fn json_depth(j: &J) -> usize {
    match j {
        J::Array(a) => 1 + a.iter().map(json_depth).max().unwrap_or(0),
        J::Object(m) => 1 + m.values().map(json_depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Sort `$set` members canonically (sets have no order) and blank the text
/// of RecursionErrors (Python words them by where the stack ran out).
pub(crate) fn normalize(j: &J) -> J {
    match j {
        J::Array(a) => J::Array(a.iter().map(normalize).collect()),
        J::Object(m) => {
            let mut out = serde_json::Map::new();
            for (k, v) in m {
                let mut v = normalize(v);
                if k == "$set"
                    && let J::Array(items) = &mut v
                {
                    items.sort_by_cached_key(canonical);
                }
                out.insert(k.clone(), v);
            }
            if out.get("class").and_then(J::as_str) == Some("RecursionError") {
                out.insert("problem".into(), J::String("(recursion)".into()));
            }
            J::Object(out)
        }
        x => x.clone(),
    }
}

/// Order-sensitive comparison (maps keep insertion order). Error marks that
/// PyYAML does not give (a ReaderError's line/column, a context without a
/// mark) are not compared.
pub(crate) fn same(ours: &J, theirs: &J) -> bool {
    // Theirs went through JSON text, whose float parsing in serde_json is
    // not always correctly rounded: send ours the same way.
    let ours: J = serde_json::from_str(&ours.to_string()).unwrap_or(J::Null);
    let mut ours = normalize(&ours);
    if let (Some(o), Some(t)) = (ours.get_mut("err"), theirs.get("err")) {
        let class = t.get("class").and_then(J::as_str);
        let fields: &[&str] = if class == Some("ReaderError") {
            &["line", "column", "context_line", "context_column"]
        } else if t.get("context_line").is_some_and(J::is_null) {
            &["context_line", "context_column"]
        } else {
            &[]
        };
        for f in fields {
            if let Some(v) = t.get(*f) {
                o[*f] = v.clone();
            }
        }
    }
    serde_json::to_string(&ours).ok() == serde_json::to_string(&normalize(theirs)).ok()
}

/// Whether python3 with PyYAML is available.
pub(crate) fn python_available() -> bool {
    Command::new("python3")
        .args(["-c", "import yaml"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A running `scripts/yaml_oracle.py`.
pub(crate) struct Oracle {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Oracle {
    /// Start the oracle.
    pub(crate) fn start() -> Oracle {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/yaml_oracle.py");
        let mut child = Command::new("python3")
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start python3");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("oracle stdout"));
        Oracle {
            child,
            stdin,
            stdout,
        }
    }

    /// Answers for a batch (written by a helper thread so pipes never block).
    pub(crate) fn ask(&mut self, inputs: &[Input]) -> Vec<J> {
        let mut lines = String::new();
        for i in inputs {
            lines.push_str(&i.request().to_string());
            lines.push('\n');
        }
        let mut stdin = self.stdin.take().expect("oracle stdin");
        let writer = std::thread::spawn(move || {
            stdin.write_all(lines.as_bytes()).expect("write oracle");
            stdin.flush().expect("flush oracle");
            stdin
        });
        let mut out = Vec::with_capacity(inputs.len());
        for _ in inputs {
            let mut line = String::new();
            self.stdout.read_line(&mut line).expect("read oracle");
            out.push(serde_json::from_str(&line).expect("oracle json"));
        }
        self.stdin = Some(writer.join().expect("writer"));
        out
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}
