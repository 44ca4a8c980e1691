//! Bytes quoted for a person to read: a short line of hex and text from an offset, never a
//! dump. An echo payload is random bytes, so escaped text alone (four characters a byte) runs
//! off the page and hides where the reply went wrong; a line at the difference shows it.

/// Bytes on one line.
pub const LINE_BYTES: usize = 16;
/// Of a line at a difference, how many bytes come before it.
const LEAD: usize = 4;
/// Most bytes of a text reply (an HTTP response) quoted as text.
pub const TEXT_BYTES: usize = 64;

/// Up to [`LINE_BYTES`] of `bytes` from `start`, as `@start: hex |text|`, e.g.
/// `@12: 68 69 00 |hi.|`; `@start: (nothing)` where `bytes` ends before `start`.
pub fn line(bytes: &[u8], start: usize) -> String {
    let shown = bytes.get(start..).unwrap_or(&[]);
    let shown = &shown[..shown.len().min(LINE_BYTES)];
    if shown.is_empty() {
        return format!("@{start}: (nothing)");
    }
    let hex: Vec<String> = shown.iter().map(|b| format!("{b:02x}")).collect();
    let text: String = shown
        .iter()
        .map(|&b| {
            if b.is_ascii_graphic() || b == b' ' {
                b as char
            } else {
                '.'
            }
        })
        .collect();
    format!("@{start}: {} |{text}|", hex.join(" "))
}

/// Where a reply parts from what was expected, at byte `at`: the offset the two quoted lines
/// start from, a few bytes before it.
pub fn lead_in(at: usize) -> usize {
    at.saturating_sub(LEAD)
}

/// The line of each, `expected` and `got`, around byte `at`.
pub fn at_byte(expected: &[u8], got: &[u8], at: usize) -> (String, String) {
    let start = lead_in(at);
    (line(expected, start), line(got, start))
}

/// The last bytes of `got` (those before a stall or a close), as one line.
pub fn tail(got: &[u8]) -> String {
    line(got, got.len().saturating_sub(LINE_BYTES))
}

/// A text reply's first [`TEXT_BYTES`], escaped (`\r`, `\x00`), "…" after them if it goes on.
pub fn escaped(bytes: &[u8]) -> String {
    let cut = &bytes[..bytes.len().min(TEXT_BYTES)];
    let more = if bytes.len() > TEXT_BYTES { "…" } else { "" };
    format!("{}{more}", cut.escape_ascii())
}

/// [`escaped`] in quotes, with the reply's length: for a sentence.
pub fn text(bytes: &[u8]) -> String {
    format!("\"{}\" ({} bytes)", escaped(bytes), bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_hex_and_text_from_its_offset() {
        assert_eq!(
            line(b"GET /\r\n\x00", 0),
            "@0: 47 45 54 20 2f 0d 0a 00 |GET /...|"
        );
        assert_eq!(line(b"abcdef", 4), "@4: 65 66 |ef|");
        assert_eq!(line(b"abc", 3), "@3: (nothing)");
        assert_eq!(line(b"abc", 90), "@90: (nothing)");
    }

    #[test]
    fn a_line_holds_sixteen_bytes_at_the_most() {
        let long = [b'x'; 1000];
        let quoted = line(&long, 500);
        assert!(quoted.starts_with("@500: 78 78"), "{quoted}");
        assert_eq!(quoted.matches("78").count(), LINE_BYTES);
        assert!(quoted.len() < 80, "{quoted}");
    }

    #[test]
    fn a_difference_is_quoted_from_a_few_bytes_before_it() {
        let (expected, got) = at_byte(b"0123456789", b"012345X789", 6);
        assert_eq!(expected, "@2: 32 33 34 35 36 37 38 39 |23456789|");
        assert_eq!(got, "@2: 32 33 34 35 58 37 38 39 |2345X789|");
        let (_, none) = at_byte(b"0123", b"", 0);
        assert_eq!(none, "@0: (nothing)");
    }

    #[test]
    fn the_tail_is_the_last_line() {
        assert_eq!(tail(b"ab"), "@0: 61 62 |ab|");
        let (body, last) = ([7u8; 40], "@24: 07 07");
        assert!(tail(&body).starts_with(last), "{}", tail(&body));
    }

    #[test]
    fn text_escapes_and_cuts() {
        assert_eq!(text(b"a\r\n\x00"), "\"a\\r\\n\\x00\" (4 bytes)");
        let long = text(&[b'x'; 300]);
        assert!(long.ends_with("…\" (300 bytes)"), "{long}");
        assert_eq!(long.matches('x').count(), TEXT_BYTES);
    }
}
