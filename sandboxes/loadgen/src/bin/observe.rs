//! The `observe` binary: see the library's `observe` module.

fn main() {
    let status =
        loadgen::observe::main_with_args(std::env::args_os(), &mut std::io::stdout().lock());
    std::process::exit(status);
}
