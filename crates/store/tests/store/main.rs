//! The store's tests in one binary: the conformance of both databases and the upgrades from
//! every earlier schema.

mod conformance;
mod upgrade;
