//! The statement renderer: any Markdown renders, to HTML that holds its escaping (see
//! `grundy_fuzz::html`), with unique heading ids.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;

fuzz_target!(|data: &[u8]| {
    let Ok(markdown) = std::str::from_utf8(data) else {
        return;
    };
    let rendered = grundy_statement::render(markdown);
    if let Err(why) = grundy_fuzz::html::check(&rendered.html) {
        panic!("unsafe HTML: {why}\n{}", rendered.html);
    }
    let mut ids = HashSet::new();
    for heading in &rendered.headings {
        assert!(
            ids.insert(&heading.id),
            "two headings share the id {}",
            heading.id
        );
        assert!((1..=6).contains(&heading.level));
    }
});
