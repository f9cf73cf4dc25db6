//! The opening table as a picture: the Hex board drawn as an SVG image, each cell coloured by
//! whether Black's opening there wins, beside the Markdown table that `hex openings --out`
//! writes.

use crate::svg::Svg;

/// Hexagon radius (centre to corner) in pixels.
const R: f64 = 24.0;
const MARGIN: f64 = 40.0;
const WIN: &str = "#9ad19a";
const LOSE: &str = "#f2a7a7";

/// The SVG of an n x n opening table: `wins[i]` and `plies[i]` for cell i = y·n + x, under the
/// title `title`.
///
/// The board is drawn as zermelo prints it: row 1 at the top, each row shifted half a cell to
/// the right of the one above, Black's edges (rows 1 and n) in black and White's (columns a and
/// the last) in grey.
pub fn openings_svg(n: usize, wins: &[bool], plies: Option<&[u32]>, title: &str) -> String {
    let w = 3f64.sqrt() * R;
    let legend = if plies.is_some() {
        "+ Black's opening wins, \u{2212} it loses; then the plies of the game with perfect play"
    } else {
        "+ Black's opening wins, \u{2212} it loses"
    };
    // Text widths are not measured (no fonts): about 0.6 em per character is enough room.
    let text_width = 0.6
        * f64::max(
            15.0 * title.chars().count() as f64,
            11.0 * legend.chars().count() as f64,
        );
    let board_width = w * (n as f64 + (n as f64 - 1.0) / 2.0);
    let width = 2.0 * MARGIN + f64::max(board_width, text_width);
    let top = MARGIN + 40.0;
    let height = top + MARGIN + R * (1.5 * n as f64 + 0.5);
    let centre = |x: usize, y: usize| {
        (
            MARGIN + w * (x as f64 + y as f64 / 2.0) + w / 2.0,
            top + R + 1.5 * R * y as f64,
        )
    };
    // Corner k of a pointy-top hexagon, at 60k - 30 degrees (y grows downwards): 0 upper right,
    // 1 lower right, 2 bottom, 3 lower left, 4 upper left, 5 top.
    let corner = |(cx, cy): (f64, f64), k: usize| {
        let a = (60.0 * k as f64 - 30.0).to_radians();
        (cx + R * a.cos(), cy + R * a.sin())
    };
    let mut svg = Svg::new(width, height);
    svg.text(MARGIN / 2.0, MARGIN / 2.0 + 5.0, 15.0, "start", title);
    svg.text(MARGIN / 2.0, MARGIN / 2.0 + 24.0, 11.0, "start", legend);
    for y in 0..n {
        for x in 0..n {
            let i = y * n + x;
            let c = centre(x, y);
            let points: Vec<(f64, f64)> = (0..6).map(|k| corner(c, k)).collect();
            let (fill, class, mark) = if wins[i] {
                (WIN, "win", "+")
            } else {
                (LOSE, "lose", "\u{2212}")
            };
            svg.polygon(&points, fill, "#555", class);
            let label = match plies {
                Some(p) => format!("{mark}{}", p[i]),
                None => mark.to_string(),
            };
            svg.text(c.0, c.1 + 5.0, 14.0, "middle", &label);
        }
    }
    // Each edge of the board along the outer sides of its cells: (corners, cells) per edge.
    let edge = |cells: Vec<(usize, usize)>, corners: [usize; 3]| -> Vec<(f64, f64)> {
        let mut line = Vec::new();
        for (x, y) in cells {
            for k in corners {
                line.push(corner(centre(x, y), k));
            }
        }
        line
    };
    let stroke = 5.0;
    svg.polyline(
        &edge((0..n).map(|x| (x, 0)).collect(), [4, 5, 0]),
        "#111",
        stroke,
    );
    svg.polyline(
        &edge((0..n).map(|x| (x, n - 1)).collect(), [3, 2, 1]),
        "#111",
        stroke,
    );
    svg.polyline(
        &edge((0..n).map(|y| (0, y)).collect(), [4, 3, 2]),
        "#aaa",
        stroke,
    );
    svg.polyline(
        &edge((0..n).map(|y| (n - 1, y)).collect(), [5, 0, 1]),
        "#aaa",
        stroke,
    );
    for x in 0..n {
        let (cx, cy) = centre(x, 0);
        let letter = char::from(b'a' + x as u8).to_string();
        svg.text(cx, cy - R - 8.0, 13.0, "middle", &letter);
    }
    for y in 0..n {
        let (cx, cy) = centre(0, y);
        svg.text(
            cx - w / 2.0 - 10.0,
            cy + 5.0,
            13.0,
            "end",
            &(y + 1).to_string(),
        );
    }
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_is_drawn_with_its_result() {
        let wins = [true, false, false, true];
        let doc = openings_svg(2, &wins, Some(&[3, 4, 4, 3]), "2x2");
        assert_eq!(doc.matches("<polygon class=\"win\"").count(), 2);
        assert_eq!(doc.matches("<polygon class=\"lose\"").count(), 2);
        assert!(doc.contains(">+3</text>") && doc.contains(">\u{2212}4</text>"));
        // Four edges, two letters, two row numbers.
        assert_eq!(doc.matches("<polyline").count(), 4);
        assert!(doc.contains(">b</text>") && doc.contains(">2</text>"));
    }
}
