//! Integers in request bodies. JSON Schema, and so the OpenAPI document, counts `2.0` as the
//! integer 2; serde refuses it for an integer field. These accept what the document promises:
//! any JSON number without a fractional part that fits the field.

use serde::Deserialize;
use serde::de::{Deserializer, Error};
use serde_json::Number;

fn whole<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i128, D::Error> {
    let number = Number::deserialize(deserializer)?;
    if let Some(n) = number.as_i64() {
        return Ok(n.into());
    }
    if let Some(n) = number.as_u64() {
        return Ok(n.into());
    }
    match number.as_f64() {
        // Beyond 2^64 the range checks below refuse it anyway; the cast saturates.
        Some(f) if f.is_finite() && f.fract() == 0.0 => Ok(f as i128),
        _ => Err(D::Error::custom(format!("{number} is not a whole number"))),
    }
}

fn fit<T: TryFrom<i128>, E: Error>(n: i128) -> Result<T, E> {
    T::try_from(n).map_err(|_| E::custom(format!("{n} is out of range")))
}

pub(crate) fn i64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    fit(whole(deserializer)?)
}

pub(crate) fn u32<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    fit(whole(deserializer)?)
}

pub(crate) fn option_u64<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<u64>, D::Error> {
    match Option::<Whole>::deserialize(deserializer)? {
        Some(Whole(n)) => fit(n).map(Some),
        None => Ok(None),
    }
}

pub(crate) fn option_i64<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<i64>, D::Error> {
    match Option::<Whole>::deserialize(deserializer)? {
        Some(Whole(n)) => fit(n).map(Some),
        None => Ok(None),
    }
}

pub(crate) fn option_u32<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<u32>, D::Error> {
    match Option::<Whole>::deserialize(deserializer)? {
        Some(Whole(n)) => fit(n).map(Some),
        None => Ok(None),
    }
}

struct Whole(i128);

impl<'de> Deserialize<'de> for Whole {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        whole(deserializer).map(Whole)
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Body {
        #[serde(deserialize_with = "super::i64")]
        at: i64,
        #[serde(default, deserialize_with = "super::option_u32")]
        days: Option<u32>,
    }

    fn parse(json: &str) -> Result<Body, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn integral_numbers_are_taken_in_any_spelling_and_others_refused() {
        let body = parse(r#"{"at": 1140872.0, "days": 3.0}"#).unwrap();
        assert_eq!((body.at, body.days), (1_140_872, Some(3)));
        assert_eq!(parse(r#"{"at": -5}"#).unwrap().days, None);
        assert_eq!(parse(r#"{"at": 1, "days": null}"#).unwrap().days, None);
        assert_eq!(parse(r#"{"at": 1e3}"#).unwrap().at, 1000);
        for refused in [
            r#"{"at": 1.5}"#,
            r#"{"at": "1"}"#,
            r#"{"at": 9223372036854775808}"#,
            r#"{"at": 1, "days": -1}"#,
            r#"{"at": 1, "days": 4294967296.0}"#,
        ] {
            assert!(parse(refused).is_err(), "{refused}");
        }
    }
}
