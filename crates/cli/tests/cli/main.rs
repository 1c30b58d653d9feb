//! The grundy binary's tests in one binary, a module per part (the service end to end, judging,
//! explanations, the catalogue tools, the browser flows, ...): the whole service is linked once
//! rather than once per file, and the parts share the machine's cores. The sandbox's containment
//! checks, which watch every sandboxed process on the machine, are a binary of their own
//! (isolation), and so is the class-size burst (burst), which times its judging.

#[path = "../common/mod.rs"]
mod common;

mod api_fuzz;
mod browser;
mod compose;
mod explain;
mod games;
mod judging;
mod problems;
mod service;
