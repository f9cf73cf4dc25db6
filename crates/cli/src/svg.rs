//! A small SVG writer for the pictures zermelo writes beside its results (the Hex openings board,
//! the plot of a Grundy table, a Hackenbush drawing).
//!
//! Written by hand rather than with a plotting crate: the pictures need polygons, lines, small
//! squares and text, nothing more; the output is the same byte for byte on every machine (no
//! font measurements), so it can be tested and committed; and the Hex board, which no charting
//! library draws, is polygons anyway.

use std::fmt::Write as _;

/// An SVG document being written.
pub struct Svg {
    text: String,
}

impl Svg {
    /// A `width` x `height` picture (pixels) on a white background, in the sans-serif font.
    pub fn new(width: f64, height: f64) -> Svg {
        let mut text = String::new();
        let _ = writeln!(
            text,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">",
            w = num(width),
            h = num(height)
        );
        let _ = writeln!(
            text,
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
        );
        Svg { text }
    }

    /// A closed polygon through `points`; `class` names it for readers and tests.
    pub fn polygon(&mut self, points: &[(f64, f64)], fill: &str, stroke: &str, class: &str) {
        let _ = writeln!(
            self.text,
            "<polygon class=\"{class}\" points=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\"/>",
            point_list(points)
        );
    }

    /// An open line through `points`.
    pub fn polyline(&mut self, points: &[(f64, f64)], stroke: &str, width: f64) {
        let _ = writeln!(
            self.text,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{}\" \
             stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
            point_list(points),
            num(width)
        );
    }

    /// A path given by its `d` attribute, filled.
    pub fn filled_path(&mut self, d: &str, fill: &str, class: &str) {
        let _ = writeln!(
            self.text,
            "<path class=\"{class}\" d=\"{d}\" fill=\"{fill}\"/>"
        );
    }

    /// A path given by its `d` attribute, stroked and not filled; `dashed` draws it in dashes.
    pub fn stroked_path(&mut self, d: &str, stroke: &str, width: f64, dashed: bool, class: &str) {
        let dash = if dashed {
            " stroke-dasharray=\"4 3\""
        } else {
            ""
        };
        let _ = writeln!(
            self.text,
            "<path class=\"{class}\" d=\"{d}\" fill=\"none\" stroke=\"{stroke}\" \
             stroke-width=\"{}\" stroke-linecap=\"round\"{dash}/>",
            num(width)
        );
    }

    /// A filled circle.
    pub fn circle(&mut self, x: f64, y: f64, r: f64, fill: &str) {
        let _ = writeln!(
            self.text,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\"/>",
            num(x),
            num(y),
            num(r)
        );
    }

    /// Text at (x, y); `anchor` is "start", "middle" or "end".
    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, content: &str) {
        let _ = writeln!(
            self.text,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\">{}</text>",
            num(x),
            num(y),
            num(size),
            escape(content)
        );
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        self.text.push_str("</svg>\n");
        self.text
    }
}

/// A coordinate with at most two decimals, without trailing zeros: short, and the same on every
/// machine.
pub fn num(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

fn point_list(points: &[(f64, f64)]) -> String {
    points
        .iter()
        .map(|&(x, y)| format!("{},{}", num(x), num(y)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Round tick positions covering `lo..=hi`: about `count` multiples of 1, 2 or 5 times a power of
/// ten.
pub fn ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    let span = (hi - lo).max(1.0);
    let raw = span / count.max(1) as f64;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * power)
        .max(1.0);
    let first = (lo / step).ceil() * step;
    (0..)
        .map(|i| first + i as f64 * step)
        .take_while(|t| *t <= hi + 1e-9)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_ticks_and_escapes() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.50), "2.5");
        assert_eq!(num(-0.001), "0");
        assert_eq!(ticks(0.0, 100.0, 5), [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(ticks(0.0, 3.0, 6), [0.0, 1.0, 2.0, 3.0]);
        assert_eq!(ticks(1000.0, 1100.0, 4), [1000.0, 1050.0, 1100.0]);
        let mut svg = Svg::new(10.0, 10.0);
        svg.text(1.0, 2.0, 8.0, "start", "a < b & c");
        let doc = svg.finish();
        assert!(doc.contains(">a &lt; b &amp; c</text>"), "{doc}");
        assert!(doc.starts_with("<svg ") && doc.ends_with("</svg>\n"));
    }
}
