//! The `cloudfold` command line: a thin shell over the library; the only place that does I/O.

#![forbid(unsafe_code)]

mod cli;

// The value tree is many small nodes; see `mimalloc` in this package's Cargo.toml.
// mimalloc still collects its heap at process exit: the C define that skips it
// (MI_SKIP_COLLECT_ON_EXIT) can only come from the build environment, which a
// `cargo install` does not have; the cost is within the noise (benches/README.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
