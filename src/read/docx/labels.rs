//! Number formats of list labels (ECMA-376 Part 1, 17.18.59 ST_NumberFormat).
//!
//! Decimal, zero-padded decimal, Roman numerals, Latin letters, ordinals and Chinese
//! counting are rendered as Word renders them; every other format (there are about
//! 60, most of them script-specific) falls back to decimal, which keeps the number
//! readable and searchable.

/// Renders `n` in the number format `format`.
pub(crate) fn format_number(n: u32, format: &str) -> String {
    match format {
        "decimalZero" if n < 10 => format!("0{n}"),
        "upperRoman" => roman(n),
        "lowerRoman" => roman(n).to_lowercase(),
        "upperLetter" => letters(n),
        "lowerLetter" => letters(n).to_lowercase(),
        "ordinal" => ordinal(n),
        "chineseCounting" | "chineseCountingThousand" | "ideographTraditional"
            if (1..10_000).contains(&n) =>
        {
            chinese(n)
        }
        "none" | "bullet" => String::new(),
        _ => n.to_string(),
    }
}

fn roman(mut n: u32) -> String {
    if n == 0 || n >= 4000 {
        return n.to_string();
    }
    const TABLE: &[(u32, &str)] = &[
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut out = String::new();
    for &(v, s) in TABLE {
        while n >= v {
            out.push_str(s);
            n -= v;
        }
    }
    out
}

/// Word's letter numbering: A..Z, then AA..ZZ, AAA.. (the letter repeated).
fn letters(n: u32) -> String {
    if n == 0 {
        return "0".into();
    }
    let idx = (n - 1) % 26;
    let times = ((n - 1) / 26 + 1).min(50) as usize;
    let c = char::from(b'A' + idx as u8);
    std::iter::repeat_n(c, times).collect()
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Chinese counting for 1..=9999: 一, 十, 十一, 二十, 一百零五, ...
fn chinese(n: u32) -> String {
    const DIGITS: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
    const UNITS: [&str; 4] = ["", "十", "百", "千"];
    let digits: Vec<u32> = [n / 1000 % 10, n / 100 % 10, n / 10 % 10, n % 10].to_vec();
    let mut out = String::new();
    let mut zero_pending = false;
    for (i, &d) in digits.iter().enumerate() {
        let unit = UNITS.get(3 - i).copied().unwrap_or("");
        if d == 0 {
            if !out.is_empty() {
                zero_pending = true;
            }
            continue;
        }
        if zero_pending {
            out.push('〇');
            zero_pending = false;
        }
        // 10..19 is written 十, 十一, ... (no leading 一).
        if !(d == 1 && i == 2 && out.is_empty()) {
            out.push(DIGITS.get(d as usize).copied().unwrap_or('〇'));
        }
        out.push_str(unit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::format_number;

    #[test]
    fn formats() {
        assert_eq!(format_number(4, "upperRoman"), "IV");
        assert_eq!(format_number(14, "lowerRoman"), "xiv");
        assert_eq!(format_number(28, "lowerLetter"), "bb");
        assert_eq!(format_number(3, "decimalZero"), "03");
        assert_eq!(format_number(12, "ordinal"), "12th");
        assert_eq!(format_number(1, "chineseCountingThousand"), "一");
        assert_eq!(format_number(15, "chineseCountingThousand"), "十五");
        assert_eq!(format_number(105, "chineseCountingThousand"), "一百〇五");
        assert_eq!(format_number(7, "hebrew1"), "7");
    }
}
