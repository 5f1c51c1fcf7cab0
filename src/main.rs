//! The `cloudfold` command line: a thin shell over the library.

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    std::process::ExitCode::SUCCESS
}
