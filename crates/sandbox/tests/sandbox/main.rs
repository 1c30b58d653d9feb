//! The sandbox's tests in one binary: the supervisor's protocol and limits, the relay, and
//! interaction between two sandboxed processes.

mod common;

mod interact;
mod relay;
mod supervisor;
