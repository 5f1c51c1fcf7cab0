//! `shellify`: `util.shellify`, the shell text `bootcmd` and `runcmd` become.

use super::ShellifyError;
use crate::yaml::value::{Node, PyStr, PyStrBuilder, Value, py_str};

/// `util.shellify(cmdlist)`: `#!/bin/sh`, then one line per item — a list
/// item as `'…'`-quoted `str()` of each element joined by spaces (`'` written
/// `'\''`), a string item verbatim, `None` skipped.
///
/// The error is the `TypeError` message cloud-init raises (for a value that
/// is not a list, or an item of another type).
///
/// ```
/// use cloudfold::plan::shellify;
/// let v = cloudfold::yaml::load("[[echo, true, 1.0, \"it's\"], ls -l, null]",
///     &Default::default()).unwrap().unwrap();
/// assert_eq!(shellify(&v).unwrap().to_string(),
///     "#!/bin/sh\n'echo' 'True' '1.0' 'it'\\''s'\nls -l\n");
/// ```
pub fn shellify(cmdlist: &Node) -> Result<PyStr, ShellifyError> {
    let Some(items) = list_items(cmdlist) else {
        return Err(ShellifyError::NotAList {
            type_name: cmdlist.type_name(),
        });
    };
    let mut out = PyStrBuilder::new();
    out.push_str("#!/bin/sh\n");
    for item in items.iter() {
        match item.value() {
            Value::Seq(args) | Value::Tuple(args) => {
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    out.push('\'');
                    for cp in py_str(a).chars() {
                        if cp == u32::from(b'\'') {
                            out.push_str("'\\''");
                        } else {
                            out.push_code_point(cp);
                        }
                    }
                    out.push('\'');
                }
                out.push('\n');
            }
            Value::Str(s) => {
                out.push_py(s);
                out.push('\n');
            }
            Value::Null => {}
            _ => {
                return Err(ShellifyError::BadItem {
                    type_name: item.type_name(),
                    value: py_str(item).to_string(),
                });
            }
        }
    }
    Ok(out.finish())
}

fn list_items(n: &Node) -> Option<&crate::yaml::value::Seq> {
    match n.value() {
        Value::Seq(s) | Value::Tuple(s) => Some(s),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(s: &str) -> Node {
        crate::yaml::load(s, &Default::default()).unwrap().unwrap()
    }

    #[test]
    fn python_str_of_values() {
        let v = load("[[a, 1.0e+16, 0.1, no, ~, {k: v}, [1, 'x']], 'echo \"q\"']");
        assert_eq!(
            shellify(&v).unwrap().to_string(),
            "#!/bin/sh\n'a' '1e+16' '0.1' 'False' 'None' '{'\\''k'\\'': '\\''v'\\''}' '[1, '\\''x'\\'']'\necho \"q\"\n"
        );
    }

    #[test]
    fn type_errors() {
        assert_eq!(
            shellify(&load("{a: 1}")).unwrap_err().to_string(),
            "Input to shellify was type 'dict'. Expected list or tuple."
        );
        assert_eq!(
            shellify(&load("~")).unwrap_err().to_string(),
            "Input to shellify was type 'NoneType'. Expected list or tuple."
        );
        assert_eq!(
            shellify(&load("[ok, 5]")).unwrap_err().to_string(),
            "Unable to shellify type 'int'. Expected list, string, tuple. Got: 5"
        );
        assert_eq!(
            shellify(&load("[{a: [1]}]")).unwrap_err().to_string(),
            "Unable to shellify type 'dict'. Expected list, string, tuple. Got: {'a': [1]}"
        );
        assert_eq!(shellify(&load("[]")).unwrap().to_string(), "#!/bin/sh\n");
    }
}
