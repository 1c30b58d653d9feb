//! The catalogue's tests in one binary, a module per part (boards, bounds, packages, play,
//! variants, ...): the crate is linked once rather than once per file, and the long verification
//! shares the machine with the short tests rather than running alone.

mod boards;
mod bounds;
mod catalogue;
mod package;
mod play;
mod play_games;
mod unpacked;
mod variants;
