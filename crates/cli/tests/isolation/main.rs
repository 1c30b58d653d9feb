//! Containment end to end, in one binary: hostile programs (sandbox), Kattis interactors (kattis)
//! and interactive players (play). Each check that nothing is left running sees every sandboxed
//! process on the machine, so the tests that judge take turns through [`serial`], and no other test
//! binary runs beside this one.

#[path = "../common/mod.rs"]
mod common;

mod kattis;
mod play;
mod sandbox;

/// One judging at a time across the modules: the checks that nothing is left running must see
/// only their own runs.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
