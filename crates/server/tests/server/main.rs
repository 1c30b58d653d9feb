//! The service's tests in one binary, a module per part (accounts, the API, courses, pages,
//! trust, ...), each starting its own server on port 0 over its own database: the service is
//! linked once rather than once per file, and the parts share the machine's cores.

#[macro_use]
mod common;

mod accounts;
mod api;
mod bounds;
mod courses;
mod drafts;
mod feedback;
mod games;
mod hardening;
mod pages;
mod play;
mod quotes;
mod students;
mod teachers;
mod trust;
