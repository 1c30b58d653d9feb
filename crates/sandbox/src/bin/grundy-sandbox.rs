//! The supervisor on its own, for this crate's tests and for deployments that keep it separate
//! from the `grundy` binary (which offers the same as `grundy sandbox-supervisor`).

fn main() {
    let options = grundy_sandbox::supervisor::Options {
        allow_weak: std::env::var_os("GRUNDY_ALLOW_WEAK_ISOLATION").is_some_and(|v| v == "1"),
        cgroup_parent: std::env::var_os("GRUNDY_CGROUP_PARENT").map(Into::into),
    };
    std::process::exit(grundy_sandbox::supervisor::main(options));
}
