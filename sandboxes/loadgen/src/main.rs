//! The `loadgen` binary: see the library's documentation (`cargo doc --open`) and README.md.

fn main() {
    let status = loadgen::main_with_args(std::env::args_os(), &mut std::io::stdout().lock());
    std::process::exit(status);
}
