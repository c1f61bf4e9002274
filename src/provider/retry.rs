//! When to retry a failed request and how long to wait first.

use std::time::UNIX_EPOCH;

/// Whether a failure is worth another attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// Rate limits, server overload, network errors: try again after a delay.
    Retryable,
    /// The request itself is wrong (bad key, unknown model, bad input): stop.
    Fatal,
}

/// Classifies a failure by HTTP status; `None` means no HTTP reply (a network error
/// or a timeout). 429, 500, 502, 503, 504 and network errors are retryable; every
/// other status (400, 401, 403, 404, 422, ...) is fatal.
pub fn classify(status: Option<u16>) -> Retry {
    match status {
        None | Some(429 | 500 | 502 | 503 | 504) => Retry::Retryable,
        Some(_) => Retry::Fatal,
    }
}

/// Exponential backoff with full jitter, capped, honouring Retry-After.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// The backoff ceiling of the first retry, in milliseconds (doubles per retry).
    pub base_delay_ms: u32,
    /// The longest wait, Retry-After included, in milliseconds.
    pub max_delay_ms: u32,
}

impl Default for RetryPolicy {
    /// 4 retries, 500 ms base, 20,000 ms cap.
    fn default() -> Self {
        RetryPolicy {
            max_retries: super::config::DEFAULT_MAX_RETRIES,
            base_delay_ms: 500,
            max_delay_ms: 20_000,
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `attempt` (0 = the first retry), in milliseconds,
    /// or `None` when `attempt >= max_retries`.
    ///
    /// With a parseable `retry_after` header value (delta-seconds, or an HTTP-date
    /// taken relative to `now_ms`, milliseconds since the Unix epoch) the wait is that
    /// value; otherwise a uniformly random wait in `0..=min(max, base * 2^attempt)`
    /// ("full jitter"), `random01` in `[0, 1)` supplying the randomness. Either way
    /// it is capped at `max_delay_ms`.
    pub fn delay_ms(
        &self,
        attempt: u32,
        retry_after: Option<&str>,
        now_ms: f64,
        random01: f64,
    ) -> Option<u32> {
        if attempt >= self.max_retries {
            return None;
        }
        if let Some(ms) = retry_after.and_then(|v| retry_after_ms(v, now_ms)) {
            return Some(ms.min(self.max_delay_ms));
        }
        let ceiling = f64::from(self.base_delay_ms) * 2f64.powi(attempt.min(31) as i32);
        let ceiling = ceiling.min(f64::from(self.max_delay_ms));
        let r = if random01.is_finite() {
            random01.clamp(0.0, 1.0)
        } else {
            0.0
        };
        Some((ceiling * r).floor() as u32)
    }
}

/// A Retry-After header value in milliseconds from `now_ms`: delta-seconds
/// (`"120"`, fractions tolerated) or an HTTP-date (`"Wed, 21 Oct 2015 07:28:00 GMT"`,
/// a date in the past meaning 0). `None` when unparseable.
pub fn retry_after_ms(value: &str, now_ms: f64) -> Option<u32> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0)
            .then(|| (secs * 1000.0).min(f64::from(u32::MAX)) as u32);
    }
    let when = httpdate::parse_http_date(value).ok()?;
    let when_ms = when.duration_since(UNIX_EPOCH).ok()?.as_millis() as f64;
    Some((when_ms - now_ms).clamp(0.0, f64::from(u32::MAX)) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classification() {
        for s in [429, 500, 502, 503, 504] {
            assert_eq!(classify(Some(s)), Retry::Retryable, "{s}");
        }
        assert_eq!(classify(None), Retry::Retryable);
        for s in [400, 401, 403, 404, 422, 501] {
            assert_eq!(classify(Some(s)), Retry::Fatal, "{s}");
        }
    }

    #[test]
    fn full_jitter_backoff_doubles_and_caps() {
        let p = RetryPolicy {
            max_retries: 10,
            base_delay_ms: 500,
            max_delay_ms: 20_000,
        };
        assert_eq!(p.delay_ms(0, None, 0.0, 0.999_999), Some(499));
        assert_eq!(p.delay_ms(1, None, 0.0, 0.5), Some(500));
        assert_eq!(p.delay_ms(3, None, 0.0, 0.5), Some(2_000));
        assert_eq!(p.delay_ms(9, None, 0.0, 0.5), Some(10_000));
        assert_eq!(p.delay_ms(0, None, 0.0, 0.0), Some(0));
        assert_eq!(p.delay_ms(10, None, 0.0, 0.5), None);
        assert_eq!(p.delay_ms(2, None, 0.0, f64::NAN), Some(0));
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        let p = RetryPolicy::default();
        assert_eq!(p.delay_ms(0, Some("2"), 0.0, 0.9), Some(2_000));
        assert_eq!(p.delay_ms(0, Some("0.25"), 0.0, 0.9), Some(250));
        assert_eq!(p.delay_ms(0, Some("3600"), 0.0, 0.9), Some(20_000));
        // 1445412480000 ms = Wed, 21 Oct 2015 07:28:00 GMT.
        let date = "Wed, 21 Oct 2015 07:28:00 GMT";
        assert_eq!(
            p.delay_ms(0, Some(date), 1_445_412_477_000.0, 0.9),
            Some(3_000)
        );
        assert_eq!(p.delay_ms(0, Some(date), 1_445_412_490_000.0, 0.9), Some(0));
        // Unparseable: fall back to backoff.
        assert_eq!(p.delay_ms(0, Some("soon"), 0.0, 0.5), Some(250));
        assert_eq!(p.delay_ms(0, Some("-1"), 0.0, 0.5), Some(250));
        assert_eq!(p.delay_ms(4, Some("1"), 0.0, 0.5), None);
    }
}
