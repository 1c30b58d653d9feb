//! The sandbox's tests in one binary: the supervisor's protocol and limits, the relay, and
//! interaction between two sandboxed processes.

mod common;

mod interact;
mod relay;
mod supervisor;

/// One test at a time: the whole binary takes seconds, and tests that overlapped on a loaded
/// machine failed now and then (the relay's report of which side ended first came back empty
/// for a program that exits at once; a box ended before it reached the locks it was to hold).
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
