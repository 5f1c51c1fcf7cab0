//! The `cloudfold` command line: a thin shell over the library; the only place that does I/O.

#![forbid(unsafe_code)]

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
