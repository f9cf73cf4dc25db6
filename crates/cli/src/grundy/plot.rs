//! `grundy show --plot`: the values of a table against the heap size, as an SVG picture.
//!
//! A range longer than the plot is wide is drawn column by column: each pixel column shows every
//! value that occurs among its heaps, so the bands and gaps of a sparse-space game stay visible
//! at any length and the file stays small (at most one mark per pixel).

use std::collections::BTreeSet;

use crate::svg::{num, ticks, Svg};

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 480.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 52.0;
const BOTTOM: f64 = 48.0;

/// The plot of G(n) for n in `from..=to` (`from` ≤ `to`), under `title`; `preperiod`, when
/// known, is marked by a dashed line where the periodic part starts.
pub fn svg(
    title: &str,
    from: u64,
    to: u64,
    value_at: impl Fn(u64) -> u16,
    preperiod: Option<u64>,
) -> String {
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let count = to - from + 1;
    let columns = count.min(plot_w as u64);
    // Every (column, value) that occurs; a column covers count / columns heaps.
    let mut marks: BTreeSet<(u64, u16)> = BTreeSet::new();
    let mut max_value = 0u16;
    for n in from..=to {
        let v = value_at(n);
        max_value = max_value.max(v);
        let column = (n - from) * columns / count;
        marks.insert((column, v));
    }
    let top_value = f64::from(max_value.max(1));
    let x_of = |column: f64| LEFT + (column + 0.5) * plot_w / columns as f64;
    let y_of = |v: f64| TOP + plot_h - v / top_value * plot_h;
    let mut svg = Svg::new(WIDTH, HEIGHT);
    svg.text(LEFT, 22.0, 15.0, "start", title);
    let note = if columns < count {
        format!(
            "each column: every value among up to {} consecutive heaps",
            count.div_ceil(columns)
        )
    } else {
        "one mark per heap".to_string()
    };
    svg.text(LEFT, 40.0, 11.0, "start", &note);
    // Axes and ticks.
    svg.polyline(
        &[
            (LEFT, TOP),
            (LEFT, TOP + plot_h),
            (LEFT + plot_w, TOP + plot_h),
        ],
        "#333",
        1.0,
    );
    for t in ticks(from as f64, to as f64, 8) {
        let column = (t - from as f64) * columns as f64 / count as f64;
        let x = x_of(column);
        svg.polyline(&[(x, TOP + plot_h), (x, TOP + plot_h + 5.0)], "#333", 1.0);
        svg.text(x, TOP + plot_h + 18.0, 11.0, "middle", &num(t));
    }
    for t in ticks(0.0, top_value, 6) {
        let y = y_of(t);
        svg.polyline(&[(LEFT - 5.0, y), (LEFT, y)], "#333", 1.0);
        svg.polyline(&[(LEFT, y), (LEFT + plot_w, y)], "#eee", 1.0);
        svg.text(LEFT - 8.0, y + 4.0, 11.0, "end", &num(t));
    }
    svg.text(
        LEFT + plot_w / 2.0,
        HEIGHT - 10.0,
        12.0,
        "middle",
        "heap size n",
    );
    svg.text(14.0, TOP - 8.0, 12.0, "start", "G(n)");
    if let Some(e) = preperiod.filter(|e| (from..=to).contains(e)) {
        let x = x_of((e - from) as f64 * columns as f64 / count as f64);
        svg.polyline(&[(x, TOP), (x, TOP + plot_h)], "#c33", 1.0);
        svg.text(x + 4.0, TOP + 12.0, 11.0, "start", "periodic from here");
    }
    // One small square per mark, in a single path: short to write and quick to draw.
    let size = (plot_w / columns as f64).clamp(1.0, 3.0);
    let mut d = String::new();
    for (column, v) in marks {
        let (x, y) = (
            x_of(column as f64) - size / 2.0,
            y_of(f64::from(v)) - size / 2.0,
        );
        d.push_str(&format!(
            "M{} {}h{s}v{s}h-{s}z",
            num(x),
            num(y),
            s = num(size)
        ));
    }
    svg.filled_path(&d, "#1f5fa6", "values");
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_ranges_are_drawn_by_columns() {
        // Nim: G(n) = n. 100 heaps, one mark each.
        let marks = |doc: &str| {
            let d = doc.split("class=\"values\" d=\"").nth(1).unwrap();
            d[..d.find('"').unwrap()].matches('z').count()
        };
        let doc = svg("nim", 0, 99, |n| n as u16, None);
        assert_eq!(marks(&doc), 100);
        assert!(doc.contains("one mark per heap"));
        // A million heaps of a sequence with two values: two marks per column at most.
        let doc = svg("alternating", 0, 999_999, |n| (n % 2) as u16, Some(0));
        let columns = (WIDTH - LEFT - RIGHT) as usize;
        assert_eq!(marks(&doc), 2 * columns);
        assert!(doc.contains("periodic from here"));
        assert!(doc.len() < 100_000);
    }
}
