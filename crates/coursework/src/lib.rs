//! Homework rules, apart from storage and HTTP: when an assignment takes submissions and what a
//! late one loses ([`rules`]), which submission counts and the gradebook with its CSV
//! ([`gradebook`]), and the keyed seeds that give each student their own instances ([`seeds`]).

pub mod gradebook;
pub mod rules;
pub mod seeds;

pub use gradebook::{Cell, ClassMisconception, ClassTotals, Gradebook, Row, gradebook};
pub use rules::{Deadlines, Feedback, Scoring, Timing, check_spec};
pub use seeds::SeedKey;
