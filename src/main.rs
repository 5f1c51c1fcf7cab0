//! The `cloudfold` command line: a thin shell over the library; the only place that does I/O.

#![forbid(unsafe_code)]

mod cli;

// The value tree is many small nodes; see the `mimalloc` feature in Cargo.toml.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
