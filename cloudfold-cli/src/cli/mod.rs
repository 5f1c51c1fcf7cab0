//! Command-line parsing and dispatch (clap); each subcommand lives in its own file.

mod args;
mod build_cmd;
mod diff_cmd;
mod exit;
mod explain_cmd;
mod input;
mod layers_cmd;
mod manifest;
mod merge_cmd;
mod output;
mod parts_cmd;
mod plan_cmd;
mod render_cmd;
mod seed_cmd;
mod stdout;
mod template_cmd;
mod terraform_external;
mod validate_cmd;

use args::{Cli, Command};
use clap::{CommandFactory, Parser};
use exit::{Exit, Failure};

/// Parse arguments, run, map the outcome to an exit code.
///
/// Input never panics the library (clippy denies unwrap/expect/panic and
/// unchecked indexing, and the fuzzers check it); should a bug still panic,
/// the user gets one clean line and exit code 70 instead of Rust's panic
/// message and 101.
pub(crate) fn main() -> std::process::ExitCode {
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" ({}:{})", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!(
            "error: internal error in cloudfold{at}: {what}\nthis is a bug: please report it with the input that caused it"
        );
    }));
    match std::panic::catch_unwind(run) {
        Ok(code) => code,
        Err(_) => Exit::Internal.into(),
    }
}

fn run() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Render(a) => render_cmd::run(&a),
        Command::Explain(a) => explain_cmd::run(&a),
        Command::Parts(a) => parts_cmd::run(&a),
        Command::Build(a) if a.terraform_external => terraform_external::run(),
        Command::Build(a) => build_cmd::run(&a),
        Command::Merge(a) => merge_cmd::run(&a),
        Command::Seed(a) => seed_cmd::run(&a),
        Command::Validate(a) => validate_cmd::run(&a),
        Command::Template(a) => template_cmd::run_template(&a),
        Command::Query(a) => template_cmd::run_query(&a),
        Command::Diff(a) => diff_cmd::run(&a),
        Command::Plan(a) => plan_cmd::run(&a),
        Command::Completions { shell } => {
            let mut cmd = Cli::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut cmd, "cloudfold", &mut script);
            stdout::write_stdout(&script)
                .map(|()| Exit::Ok)
                .map_err(Failure::from)
        }
        Command::Man => man_page()
            .and_then(|page| stdout::write_stdout(&page))
            .map(|()| Exit::Ok)
            .map_err(Failure::from),
    };
    match result {
        Ok(code) => code.into(),
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            failure.exit.into()
        }
    }
}

/// One man page: the top-level sections, then each subcommand's synopsis and
/// options under its own heading (clap_mangen renders one command at a time).
fn man_page() -> Result<Vec<u8>, String> {
    let err = |e: std::io::Error| format!("cannot render the man page: {e}");
    let cmd = Cli::command();
    let man = clap_mangen::Man::new(cmd.clone());
    let mut out = Vec::new();
    man.render_title(&mut out).map_err(err)?;
    man.render_name_section(&mut out).map_err(err)?;
    man.render_synopsis_section(&mut out).map_err(err)?;
    man.render_description_section(&mut out).map_err(err)?;
    man.render_options_section(&mut out).map_err(err)?;
    man.render_subcommands_section(&mut out).map_err(err)?;
    for sub in cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        let name = format!("cloudfold {}", sub.get_name());
        out.extend_from_slice(format!(".SH \"COMMAND: {name}\"\n").as_bytes());
        let sub = sub.clone().bin_name(name);
        let sman = clap_mangen::Man::new(sub);
        let mut body = Vec::new();
        sman.render_synopsis_section(&mut body).map_err(err)?;
        sman.render_options_section(&mut body).map_err(err)?;
        // Demote the subcommand's own section headings to subsections.
        let text = String::from_utf8_lossy(&body).replace(".SH ", ".SS ");
        out.extend_from_slice(text.as_bytes());
    }
    man.render_extra_section(&mut out).map_err(err)?;
    man.render_version_section(&mut out).map_err(err)?;
    Ok(out)
}
