//! The `cloudfold` command line: a thin shell over the library; the only place that does I/O.

#![forbid(unsafe_code)]

mod cli;

// The value tree is many small nodes; see `mimalloc` in this package's Cargo.toml.
// Built in this repository, mimalloc skips collecting its heap at process exit
// (MI_SKIP_COLLECT_ON_EXIT, from the CFLAGS in .cargo/config.toml).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
