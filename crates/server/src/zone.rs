//! Time zones: the zone a person reads times in and enters deadlines in, and a moment as a page
//! shows it. Everything stored and everything the API says stays UTC; zones only change what a
//! page shows and how a typed `datetime-local` value is read.
//!
//! The tz database is compiled in (jiff's bundle), so every machine reads the same local times,
//! one without `/usr/share/zoneinfo` too.
//!
//! A page shows a moment as `<time datetime="…Z" title="… UTC">` with the text in the reader's
//! zone when their account names one. Otherwise the text is UTC and the element is marked
//! `data-zone="browser"`: `grundy.js` rewrites it in the browser's own zone, and without
//! JavaScript it stays UTC, named as such.

use std::fmt;
use std::sync::OnceLock;

use grundy_store::User;
use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;

use crate::locale::Locale;

/// A zone of the tz database, by its IANA name ("Asia/Ho_Chi_Minh").
#[derive(Debug, Clone, PartialEq)]
pub struct Zone {
    name: String,
    tz: TimeZone,
}

/// The refusal of a zone the tz database does not know, worded once (pages translate it).
pub const UNKNOWN_ZONE: &str =
    "unknown time zone: choose one from the list (an IANA name such as Asia/Ho_Chi_Minh)";

/// A name the tz database does not know.
#[derive(Debug, thiserror::Error)]
#[error("{UNKNOWN_ZONE}: {0:?}")]
pub struct UnknownZone(pub String);

impl Zone {
    pub fn utc() -> Zone {
        Zone {
            name: "UTC".into(),
            tz: TimeZone::UTC,
        }
    }

    /// A zone by its IANA name; the name is kept as the database spells it.
    pub fn parse(name: &str) -> Result<Zone, UnknownZone> {
        let name = name.trim();
        let unknown = || UnknownZone(name.to_owned());
        // Only region names and UTC: a fixed offset ("+07:00") or a POSIX rule is not a place.
        if name.is_empty() || name.contains(':') {
            return Err(unknown());
        }
        let tz = TimeZone::get(name).map_err(|_| unknown())?;
        let name = tz.iana_name().ok_or_else(unknown)?.to_owned();
        Ok(Zone { name, tz })
    }

    /// The zone an account reads times in, if it names one the database knows.
    pub fn of_account(user: &User) -> Option<Zone> {
        user.time_zone.as_deref().and_then(|z| Zone::parse(z).ok())
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The zones a person chooses from: UTC, then the database's preferred names of places
    /// (no aliases, no `Etc/…` offsets), alphabetically.
    pub fn choices() -> &'static [String] {
        static CHOICES: OnceLock<Vec<String>> = OnceLock::new();
        CHOICES.get_or_init(|| {
            const REGIONS: [&str; 9] = [
                "Africa/",
                "America/",
                "Antarctica/",
                "Asia/",
                "Atlantic/",
                "Australia/",
                "Europe/",
                "Indian/",
                "Pacific/",
            ];
            let mut names: Vec<String> = jiff::tz::db()
                .available()
                .map(|n| n.as_str().to_owned())
                .filter(|n| REGIONS.iter().any(|r| n.starts_with(r)))
                .filter(|n| TimeZone::get(n).is_ok_and(|tz| tz.is_primary()))
                .collect();
            names.sort();
            names.dedup();
            names.insert(0, "UTC".into());
            names
        })
    }

    /// A `datetime-local` value ("2026-12-01T23:59", seconds ignored) read as a wall-clock time
    /// here, in Unix milliseconds. A time a clock change skips (spring forward) is read as the
    /// same time before the change, so it lands that long after the gap; a time it repeats (fall
    /// back) is the first of the two. This is the rule of RFC 5545 and JavaScript's Temporal
    /// ("compatible").
    pub fn read_local(&self, text: &str) -> Option<i64> {
        let text = text.trim();
        let text = text.get(..16).unwrap_or(text);
        let civil: DateTime = text.parse().ok()?;
        let at = self.tz.to_ambiguous_timestamp(civil).compatible().ok()?;
        Some(at.as_millisecond())
    }

    /// A moment as a `datetime-local` value in this zone ("2026-12-01T23:59").
    pub fn local_input(&self, ms: i64) -> String {
        let Ok(at) = Timestamp::from_millisecond(ms) else {
            return String::new();
        };
        let t = self.tz.to_datetime(at);
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}",
            t.year(),
            t.month(),
            t.day(),
            t.hour(),
            t.minute()
        )
    }

    /// The moment's offset as the pages name it: "GMT+7", "GMT+5:30", "GMT−3"; "UTC" for UTC.
    fn offset_name(&self, at: Timestamp) -> String {
        if self.name == "UTC" {
            return "UTC".into();
        }
        let seconds = self.tz.to_offset(at).seconds();
        let (hours, minutes) = (seconds.abs() / 3600, seconds.abs() % 3600 / 60);
        let sign = if seconds < 0 { "−" } else { "+" };
        match (hours, minutes) {
            (0, 0) => "GMT".into(),
            (h, 0) => format!("GMT{sign}{h}"),
            (h, m) => format!("GMT{sign}{h}:{m:02}"),
        }
    }
}

/// A stored moment in Unix milliseconds, however many references a template wraps it in.
pub trait Stamp {
    fn ms(&self) -> i64;
}

impl Stamp for i64 {
    fn ms(&self) -> i64 {
        *self
    }
}

impl<T: Stamp + ?Sized> Stamp for &T {
    fn ms(&self) -> i64 {
        (**self).ms()
    }
}

/// A stored moment (Unix milliseconds) for a page, in the reader's zone if they chose one.
#[derive(Debug, Clone, Copy)]
pub struct Moment<'a> {
    pub ms: i64,
    /// The account's zone; `None` writes UTC for the browser to rewrite.
    pub zone: Option<&'a Zone>,
    pub locale: Locale,
}

impl Moment<'_> {
    /// The text inside the element: "27/11/2026 05:49 (GMT+7)" in Vietnamese, "27 Nov 2026,
    /// 05:49 (GMT+7)" in English.
    pub fn text(&self) -> String {
        const MONTHS: [&str; 12] = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        let utc = Zone::utc();
        let zone = self.zone.unwrap_or(&utc);
        let Ok(at) = Timestamp::from_millisecond(self.ms) else {
            return String::new();
        };
        let t = zone.tz.to_datetime(at);
        let named = zone.offset_name(at);
        let (hour, minute) = (t.hour(), t.minute());
        match self.locale {
            Locale::Vi => format!(
                "{:02}/{:02}/{:04} {hour:02}:{minute:02} ({named})",
                t.day(),
                t.month(),
                t.year()
            ),
            Locale::En => format!(
                "{} {} {:04}, {hour:02}:{minute:02} ({named})",
                t.day(),
                MONTHS[(t.month() - 1) as usize],
                t.year()
            ),
        }
    }
}

/// The whole `<time>` element. Nothing in it comes from a user: digits, month names and offsets.
impl fmt::Display for Moment<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Ok(at) = Timestamp::from_millisecond(self.ms) else {
            return Ok(());
        };
        let u = TimeZone::UTC.to_datetime(at);
        let (y, mo, d, h, mi, s) = (
            u.year(),
            u.month(),
            u.day(),
            u.hour(),
            u.minute(),
            u.second(),
        );
        write!(
            f,
            "<time datetime=\"{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z\" \
             title=\"{y:04}-{mo:02}-{d:02} {h:02}:{mi:02} UTC\"{}>{}</time>",
            if self.zone.is_none() {
                " data-zone=\"browser\""
            } else {
                ""
            },
            self.text()
        )
    }
}

impl askama::filters::HtmlSafe for Moment<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-11-27T22:49:00Z.
    const AT: i64 = 1_795_819_740_000;

    #[test]
    fn a_moment_reads_in_the_account_zone_with_utc_on_hover() {
        let hcm = Zone::parse("Asia/Ho_Chi_Minh").unwrap();
        let vi = Moment {
            ms: AT,
            zone: Some(&hcm),
            locale: Locale::Vi,
        };
        assert_eq!(
            vi.to_string(),
            "<time datetime=\"2026-11-27T22:49:00Z\" title=\"2026-11-27 22:49 UTC\">\
             28/11/2026 05:49 (GMT+7)</time>"
        );
        let kolkata = Zone::parse("Asia/Kolkata").unwrap();
        let en = Moment {
            ms: AT,
            zone: Some(&kolkata),
            locale: Locale::En,
        };
        assert_eq!(en.text(), "28 Nov 2026, 04:19 (GMT+5:30)");
    }

    #[test]
    fn without_a_zone_the_moment_is_utc_for_the_browser_to_rewrite() {
        let m = Moment {
            ms: AT,
            zone: None,
            locale: Locale::En,
        };
        assert_eq!(
            m.to_string(),
            "<time datetime=\"2026-11-27T22:49:00Z\" title=\"2026-11-27 22:49 UTC\" \
             data-zone=\"browser\">27 Nov 2026, 22:49 (UTC)</time>"
        );
    }

    #[test]
    fn unknown_zones_and_bare_offsets_are_refused() {
        for bad in ["", "Mars/Olympus_Mons", "+07:00", "UTC+7:00"] {
            assert!(Zone::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(Zone::parse(" Asia/Saigon ").unwrap().name(), "Asia/Saigon");
        assert!(Zone::choices().iter().any(|z| z == "Asia/Ho_Chi_Minh"));
        assert!(!Zone::choices().iter().any(|z| z.starts_with("Etc/")));
    }

    #[test]
    fn local_times_are_read_in_the_zone_and_gaps_and_repeats_resolve_as_stated() {
        let hcm = Zone::parse("Asia/Ho_Chi_Minh").unwrap();
        // 2026-12-01T16:59:00Z.
        let due = hcm.read_local("2026-12-01T23:59").unwrap();
        assert_eq!(due, 1_796_144_340_000);
        assert_eq!(hcm.local_input(due), "2026-12-01T23:59");
        let ny = Zone::parse("America/New_York").unwrap();
        // 2026-03-08 02:30 does not exist in New York: read as 03:30 EDT (07:30Z).
        let gap = ny.read_local("2026-03-08T02:30").unwrap();
        assert_eq!(Zone::utc().local_input(gap), "2026-03-08T07:30");
        // 2026-11-01 01:30 happens twice: the first (EDT, 05:30Z).
        let fold = ny.read_local("2026-11-01T01:30").unwrap();
        assert_eq!(Zone::utc().local_input(fold), "2026-11-01T05:30");
        assert_eq!(hcm.read_local("tomorrow"), None);
    }
}
