//! The text of the protocol: command lines in, replies out.
//!
//! A command line is an optional numeric id, a command name and its arguments, separated by
//! spaces; a `#` starts a comment to the end of the line, and control characters other than
//! tabs (which count as spaces) are dropped. A reply is `=` (success) or `?` (failure), the
//! id if the command had one, a space and the text, and ends with a blank line.

/// The largest id echoed: ids are unsigned integers, and the regression tools and GUIs keep
/// them small; a longer string of digits is answered as an error.
pub const MAX_ID: u64 = u32::MAX as u64;

/// One command line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    /// The id to echo in the reply.
    pub id: Option<u64>,
    /// The command name.
    pub name: String,
    /// The arguments.
    pub args: Vec<String>,
}

/// What a line of input holds: nothing to answer (blank or a comment), a command, or a line
/// that cannot be a command, with the id to echo (when it could be read) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A blank line or a comment: no reply.
    Empty,
    /// A command to run.
    Command(CommandLine),
    /// A line that is not a command: the reply is an error.
    Malformed(Option<u64>, String),
}

/// Parses one line of input (without its line end).
///
/// ```
/// use zermelo_hex::gtp::{parse_line, Line};
/// let Line::Command(c) = parse_line("12 play b\tc3 # a comment") else { panic!() };
/// assert_eq!((c.id, c.name.as_str(), c.args.len()), (Some(12), "play", 2));
/// assert_eq!(parse_line("  # only a comment"), Line::Empty);
/// assert!(matches!(parse_line("99999999999999999999 name"), Line::Malformed(None, _)));
/// ```
#[must_use]
pub fn parse_line(line: &str) -> Line {
    let text: String = line
        .split('#')
        .next()
        .unwrap_or("")
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut words = text.split_whitespace();
    let Some(first) = words.next() else {
        return Line::Empty;
    };
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        match first.parse::<u64>().ok().filter(|&id| id <= MAX_ID) {
            Some(id) => (Some(id), words.next()),
            None => return Line::Malformed(None, format!("id {first} is out of range")),
        }
    } else {
        (None, Some(first))
    };
    let Some(name) = name else {
        return Line::Malformed(id, "missing command".into());
    };
    Line::Command(CommandLine {
        id,
        name: name.to_string(),
        args: words.map(str::to_string).collect(),
    })
}

/// The text of a reply: `=` or `?`, the id, a space and the text, then a blank line. Blank
/// lines inside the text would end the reply early, so they are dropped.
///
/// ```
/// use zermelo_hex::gtp::format_reply;
/// assert_eq!(format_reply(Some(3), Ok("black")), "=3 black\n\n");
/// assert_eq!(format_reply(None, Err("unknown command")), "? unknown command\n\n");
/// ```
#[must_use]
pub fn format_reply(id: Option<u64>, result: Result<&str, &str>) -> String {
    let (mark, text) = match result {
        Ok(text) => ('=', text),
        Err(text) => ('?', text),
    };
    let id = id.map(|i| i.to_string()).unwrap_or_default();
    let mut body = String::new();
    for (k, line) in text.trim_end().split('\n').enumerate() {
        if k > 0 && line.trim().is_empty() {
            continue;
        }
        if k > 0 {
            body.push('\n');
        }
        body.push_str(line.trim_end());
    }
    format!("{mark}{id} {body}\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cleaned_before_parsing() {
        assert_eq!(parse_line(""), Line::Empty);
        assert_eq!(parse_line("\u{1}\u{7f}\t "), Line::Empty);
        let Line::Command(c) = parse_line("\u{0}na\u{8}me") else {
            panic!("a command")
        };
        assert_eq!((c.id, c.name.as_str()), (None, "name"));
        assert_eq!(
            parse_line("7"),
            Line::Malformed(Some(7), "missing command".into())
        );
        assert!(matches!(
            parse_line("4294967296 name"),
            Line::Malformed(None, _)
        ));
        assert!(matches!(parse_line("4294967295 name"), Line::Command(_)));
    }

    #[test]
    fn replies_keep_no_blank_line_inside() {
        assert_eq!(format_reply(None, Ok("")), "= \n\n");
        assert_eq!(format_reply(Some(1), Ok("\na\n\nb\n")), "=1 \na\nb\n\n");
    }
}
