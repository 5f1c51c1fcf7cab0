//! Command-line parsing and dispatch (clap); each subcommand lives in its own file.

mod args;
mod exit;
mod input;
mod parts_cmd;
mod render_cmd;

use args::{Cli, Command};
use clap::{CommandFactory, Parser};
use exit::Exit;

/// Parse arguments, run, map the outcome to an exit code.
pub fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Render(a) => render_cmd::run(&a),
        Command::Parts(a) => parts_cmd::run(&a),
        Command::Completions { shell } => {
            let mut cmd = Cli::command();
            clap_complete::generate(shell, &mut cmd, "cloudfold", &mut std::io::stdout());
            Ok(Exit::Ok)
        }
        Command::Man => {
            let man = clap_mangen::Man::new(Cli::command());
            let mut out = Vec::new();
            match man.render(&mut out) {
                Ok(()) => {
                    use std::io::Write;
                    let _ = std::io::stdout().write_all(&out);
                    Ok(Exit::Ok)
                }
                Err(e) => Err(format!("cannot render the man page: {e}")),
            }
        }
    };
    match result {
        Ok(code) => code.into(),
        Err(msg) => {
            eprintln!("error: {msg}");
            Exit::Usage.into()
        }
    }
}
