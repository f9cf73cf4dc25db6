//! The picture of a Hackenbush drawing: the ground as a line at the bottom, each vertex as high
//! as its distance (in edges) from the ground, the vertices of one height spread evenly in the
//! order they were reached; parallel edges bend apart, loops are drawn as petals.

use std::collections::HashMap;
use std::fmt::Write as _;

use zermelo_grundy::hackenbush::{Analysis, Drawing};

use crate::svg::{num, Svg};

/// Room for one vertex across and between two heights.
const STEP_X: f64 = 56.0;
const STEP_Y: f64 = 70.0;
const MARGIN: f64 = 30.0;
/// Room above the drawing for the title.
const TITLE: f64 = 40.0;

const GREEN: &str = "#2e7d32";
const RED: &str = "#c0392b";
const GREY: &str = "#9e9e9e";

/// The SVG picture of `drawing`, the `winning` edges in red and the fallen ones dashed.
pub fn svg(drawing: &Drawing, analysis: &Analysis, winning: &[usize]) -> String {
    let n = drawing.vertex_count();
    let edges = drawing.dense_edges();
    let height = heights(n, edges);
    let max_height = height.iter().copied().max().unwrap_or(0).max(1);
    // Vertices of each height, in the order they were reached.
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); max_height + 1];
    for v in order_reached(n, edges) {
        rows[height[v]].push(v);
    }
    let widest = rows.iter().map(Vec::len).max().unwrap_or(1).max(3);
    let width = 2.0 * MARGIN + widest as f64 * STEP_X;
    let ground_y = TITLE + MARGIN + max_height as f64 * STEP_Y;
    let total_height = ground_y + MARGIN;
    let mut at = vec![(0.0, ground_y); n];
    for (h, row) in rows.iter().enumerate().skip(1) {
        let span = (width - 2.0 * MARGIN) / row.len() as f64;
        for (j, &v) in row.iter().enumerate() {
            at[v] = (
                MARGIN + (j as f64 + 0.5) * span,
                ground_y - h as f64 * STEP_Y,
            );
        }
    }

    let mut svg = Svg::new(width, total_height);
    let outcome = if analysis.value() == 0 { "P" } else { "N" };
    svg.text(
        MARGIN,
        22.0,
        14.0,
        "start",
        &format!(
            "Green Hackenbush: value {} ({outcome}), {} edges",
            analysis.value(),
            drawing.edge_count()
        ),
    );
    svg.text(
        MARGIN,
        36.0,
        10.0,
        "start",
        "red: winning moves; dashed: falls at once",
    );
    svg.polyline(
        &[(MARGIN / 2.0, ground_y), (width - MARGIN / 2.0, ground_y)],
        "#6d4c41",
        4.0,
    );

    let fallen: Vec<bool> = {
        let mut f = vec![false; edges.len()];
        for &e in analysis.fallen() {
            f[e] = true;
        }
        f
    };
    // Parallel edges and loops at one vertex are told apart by their rank among equals.
    let mut seen: HashMap<(u32, u32), usize> = HashMap::new();
    let mut count: HashMap<(u32, u32), usize> = HashMap::new();
    for &[u, v] in edges {
        *count.entry(key(u, v)).or_insert(0) += 1;
    }
    let mut ground_loops = 0usize;
    for (e, &[u, v]) in edges.iter().enumerate() {
        let k = key(u, v);
        let rank = *seen.entry(k).and_modify(|r| *r += 1).or_insert(0);
        let (stroke, width, class) = if winning.contains(&e) {
            (RED, 3.0, "winning")
        } else if fallen[e] {
            (GREY, 2.0, "fallen")
        } else {
            (GREEN, 2.5, "edge")
        };
        let end = |x: u32, other: u32| {
            if x == 0 {
                // Edges to the ground stand on it straight below their other end.
                (at[other as usize].0, ground_y)
            } else {
                at[x as usize]
            }
        };
        let d = if u == v {
            let (x, y) = if u == 0 {
                ground_loops += 1;
                (MARGIN / 2.0 + 12.0 * ground_loops as f64, ground_y)
            } else {
                at[u as usize]
            };
            let r = rank as f64;
            let mut d = format!("M{},{} ", num(x), num(y));
            let _ = write!(
                d,
                "C{},{} {},{} {},{}",
                num(x - 12.0 - 5.0 * r),
                num(y - 30.0 - 8.0 * r),
                num(x + 12.0 + 5.0 * r),
                num(y - 30.0 - 8.0 * r),
                num(x),
                num(y)
            );
            d
        } else {
            let p = end(u, v);
            let q = end(v, u);
            let bend = (rank as f64 - (count[&k] as f64 - 1.0) / 2.0) * 18.0;
            let (mx, my) = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
            let (dx, dy) = (q.0 - p.0, q.1 - p.1);
            let len = (dx * dx + dy * dy).sqrt().max(1.0);
            let (cx, cy) = (mx - dy / len * bend, my + dx / len * bend);
            format!(
                "M{},{} Q{},{} {},{}",
                num(p.0),
                num(p.1),
                num(cx),
                num(cy),
                num(q.0),
                num(q.1)
            )
        };
        svg.stroked_path(&d, stroke, width, class == "fallen", class);
    }
    for (v, &(x, y)) in at.iter().enumerate().skip(1) {
        svg.circle(x, y, 3.5, "#212121");
        svg.text(
            x + 6.0,
            y - 5.0,
            9.0,
            "start",
            &drawing.vertex_number(v).to_string(),
        );
    }
    svg.finish()
}

fn key(u: u32, v: u32) -> (u32, u32) {
    (u.min(v), u.max(v))
}

/// Adjacency lists.
fn neighbours(n: usize, edges: &[[u32; 2]]) -> Vec<Vec<usize>> {
    let mut adj = vec![Vec::new(); n];
    for &[u, v] in edges {
        adj[u as usize].push(v as usize);
        adj[v as usize].push(u as usize);
    }
    adj
}

/// Breadth-first order from the ground, then from the first vertex of each part that does not
/// touch it.
fn order_reached(n: usize, edges: &[[u32; 2]]) -> Vec<usize> {
    let adj = neighbours(n, edges);
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for s in 0..n {
        if seen[s] {
            continue;
        }
        seen[s] = true;
        let first = order.len();
        order.push(s);
        let mut i = first;
        while i < order.len() {
            let v = order[i];
            i += 1;
            for &w in &adj[v] {
                if !seen[w] {
                    seen[w] = true;
                    order.push(w);
                }
            }
        }
    }
    order
}

/// Each vertex's height: its distance from the ground, or for a part that does not touch the
/// ground, one more than the distance from its first vertex.
fn heights(n: usize, edges: &[[u32; 2]]) -> Vec<usize> {
    let adj = neighbours(n, edges);
    let mut height = vec![usize::MAX; n];
    for v in order_reached(n, edges) {
        if height[v] == usize::MAX {
            height[v] = usize::from(v != 0);
        }
        for &w in &adj[v] {
            if height[w] == usize::MAX {
                height[w] = height[v] + 1;
            }
        }
    }
    height
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_are_drawn_by_kind() {
        let d = Drawing::parse(["0-1", "1-2", "2-0", "1-1", "0-1", "5-6"]).unwrap();
        let a = d.analyse();
        let winning = a.winning_moves().unwrap();
        let doc = svg(&d, &a, &winning);
        let class = |c: &str| doc.matches(&format!("class=\"{c}\"")).count();
        assert_eq!(class("winning"), winning.len());
        assert_eq!(class("fallen"), 1);
        assert_eq!(class("edge") + class("winning") + class("fallen"), 6);
        assert!(doc.contains(&format!("value {}", a.value())));
    }
}
