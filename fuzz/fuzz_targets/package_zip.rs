//! The package reader on raw bytes: the zip layer, the unpacking limits and the path checks.
//! A package it accepts must export and read back to the same problem.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(problem) = grundy_problems::read_zip(data, &grundy_fuzz::fuzz_limits()) {
        grundy_fuzz::assert_round_trip(&problem);
    }
});
