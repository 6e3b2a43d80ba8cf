//! Cell symbols of the text wing: how a layout writes values (digits, letters, numbers) and the small text helpers its messages share.

/// Characters in `text` as a message counts them: UTF-8 characters, or
/// bytes when the text is not UTF-8.
pub fn char_count(text: &[u8]) -> usize {
    std::str::from_utf8(text).map_or(text.len(), |s| s.chars().count())
}

/// A path in a message: as `Path::display` shows it, with control
/// characters escaped (`\u{1b}`, `\n`), so a file name cannot move the
/// cursor or recolour the terminal, nor split a `FILE:LINE:` message.
pub fn shown_path<P: AsRef<std::path::Path> + ?Sized>(path: &P) -> String {
    let text = path.as_ref().display().to_string();
    if !text.chars().any(char::is_control) {
        return text;
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// How cell values are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symbols {
    /// `1`-`9` (4x4: `1`-`4`); blanks `.` `0` `_` `*`.
    Digits,
    /// `A`, `B`, ... for 1, 2, ... (up to 26x26); blanks `-` `.` `_` `*` `0`.
    Letters,
    /// `0`-`9` then `A`-`Z` for 1, 2, ...: hex digits `0`-`F` for 16x16,
    /// up to 36x36; blanks `.` `-` `_` `*`.
    Hex0,
    /// `1`-`9` then `A`-`Z` for 1, 2, ... (`A`-`G` for 10-16 on 16x16), up
    /// to 35x35; blanks `.` `0` `-` `_` `*`.
    Hex1,
    /// Decimal numbers separated by whitespace, `0` (or `.`) blank.
    Numbers,
}

impl Symbols {
    /// The symbol written for value `v` (1-based).
    pub(super) fn encode(self, v: u8) -> u8 {
        match self {
            Symbols::Digits | Symbols::Hex1 if v <= 9 => b'0' + v,
            Symbols::Hex1 => b'A' + v - 10,
            Symbols::Letters => b'A' + v - 1,
            Symbols::Hex0 if v <= 10 => b'0' + v - 1,
            Symbols::Hex0 => b'A' + v - 11,
            Symbols::Digits | Symbols::Numbers => b'0' + v,
        }
    }

    /// The bytes read as a blank, the usual one first.
    pub(super) fn blanks(self) -> &'static [u8] {
        match self {
            Symbols::Digits | Symbols::Numbers => b".0_*",
            Symbols::Letters => b"-._*0",
            Symbols::Hex0 => b"-._*",
            Symbols::Hex1 => b".0-_*",
        }
    }

    /// The blank symbol `text` (a record's puzzle) uses, or the usual one.
    pub fn blank_in(self, text: &[u8]) -> u8 {
        let blanks = self.blanks();
        text.iter()
            .copied()
            .find(|b| blanks.contains(b))
            .unwrap_or(blanks[0])
    }

    /// Byte → value table: 0 blank, 1..=side a given, [`BAD`] otherwise.
    pub(super) fn decode_table(self, side: usize) -> [u8; 256] {
        let mut t = [BAD; 256];
        let most = match self {
            Symbols::Digits | Symbols::Numbers => 9,
            Symbols::Letters => 26,
            Symbols::Hex1 => 35,
            Symbols::Hex0 => 36,
        };
        for v in 1..=side.min(most) as u8 {
            let s = self.encode(v);
            t[s as usize] = v;
            t[s.to_ascii_lowercase() as usize] = v;
        }
        for &b in self.blanks() {
            t[b as usize] = 0;
        }
        t
    }
}

pub(super) const BAD: u8 = 0xFF;

/// A rule line of a boxed grid: only `-`, `=`, `+`, `*`, `|`, `!` and
/// spaces, with at least one `-` or `=`.
pub fn is_rule(line: &[u8]) -> bool {
    line.iter().any(|&b| b == b'-' || b == b'=')
        && line.iter().all(|&b| {
            matches!(
                b,
                b'-' | b'=' | b'+' | b'*' | b'|' | b'!' | b' ' | b'\t' | b'\r'
            )
        })
}

/// Bytes of a boxed row that are decoration, not cells.
pub(super) fn is_decoration(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'|' | b'!' | b'\r')
}
