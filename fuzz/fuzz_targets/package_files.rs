//! The package reader on packages made of fuzzed files (see `files_from_entries`): the layout,
//! `problem.yaml`, the statements, the tests and the validator. A package it accepts must export
//! and read back to the same problem.

#![no_main]

use libfuzzer_sys::fuzz_target;
use zip::CompressionMethod;

fuzz_target!(|data: &[u8]| {
    let files = grundy_fuzz::files_from_entries(data);
    let zip = grundy_fuzz::zip_of(&files, CompressionMethod::Stored);
    if let Ok(problem) = grundy_problems::read_zip(&zip, &grundy_fuzz::fuzz_limits()) {
        grundy_fuzz::assert_round_trip(&problem);
    }
});
