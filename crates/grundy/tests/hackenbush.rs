//! Green Hackenbush against a brute force that plays the game as its rule says: a position is
//! the set of edges standing, a move erases one and drops every edge no longer joined to the
//! ground, and values are the memoised mex of the options. It shares no code with the
//! reduction (fusion and colon principles) in the library.

use std::collections::HashMap;

use zermelo_grundy::hackenbush::Drawing;
use zermelo_grundy::sum::{analyse, Component};

/// The brute-force solver of one drawing (at most 64 edges, vertices numbered below 64).
struct Brute {
    edges: Vec<(usize, usize)>,
    memo: HashMap<u64, u64>,
}

impl Brute {
    fn new(edges: &[(usize, usize)]) -> Brute {
        assert!(edges.len() <= 64);
        Brute {
            edges: edges.to_vec(),
            memo: HashMap::new(),
        }
    }

    /// The edges of `standing` that a path joins to the ground (vertex 0).
    fn grounded(&self, standing: u64) -> u64 {
        let mut reached: u64 = 1; // vertices, as bits
        let mut kept = 0u64;
        loop {
            let mut changed = false;
            for (i, &(u, v)) in self.edges.iter().enumerate() {
                let bit = 1u64 << i;
                if standing & bit != 0 && kept & bit == 0 {
                    let touches = (reached >> u) & 1 == 1 || (reached >> v) & 1 == 1;
                    if touches {
                        kept |= bit;
                        reached |= (1 << u) | (1 << v);
                        changed = true;
                    }
                }
            }
            if !changed {
                return kept;
            }
        }
    }

    /// The position after erasing edge `i` from `standing`.
    fn erase(&self, standing: u64, i: usize) -> u64 {
        self.grounded(standing & !(1u64 << i))
    }

    fn value(&mut self, standing: u64) -> u64 {
        if let Some(&v) = self.memo.get(&standing) {
            return v;
        }
        let mut seen = Vec::new();
        for i in 0..self.edges.len() {
            if standing >> i & 1 == 1 {
                let after = self.erase(standing, i);
                seen.push(self.value(after));
            }
        }
        let mex = (0..)
            .find(|x| !seen.contains(x))
            .expect("some value is missing");
        self.memo.insert(standing, mex);
        mex
    }

    fn all(&self) -> u64 {
        if self.edges.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.edges.len()) - 1
        }
    }
}

fn drawing(edges: &[(usize, usize)]) -> Drawing {
    let list: Vec<(u64, u64)> = edges.iter().map(|&(u, v)| (u as u64, v as u64)).collect();
    Drawing::new(&list).unwrap()
}

/// Checks the value, the fallen edges and the value after erasing each edge.
fn check(edges: &[(usize, usize)]) {
    let mut brute = Brute::new(edges);
    let start = brute.grounded(brute.all());
    let value = brute.value(start);
    let d = drawing(edges);
    assert_eq!(d.value(), value, "value of {edges:?}");
    let a = d.analyse();
    assert_eq!(a.value(), value, "{edges:?}");
    let fallen: Vec<usize> = (0..edges.len()).filter(|i| start >> i & 1 == 0).collect();
    assert_eq!(a.fallen(), &fallen[..], "fallen edges of {edges:?}");
    let mut after = vec![None; edges.len()];
    for (i, slot) in after.iter_mut().enumerate() {
        if start >> i & 1 == 1 {
            let p = brute.erase(start, i);
            *slot = Some(brute.value(p));
        }
    }
    let top = after.iter().flatten().max().copied().unwrap_or(0);
    for t in 0..=top + 1 {
        let expected: Vec<usize> = (0..edges.len()).filter(|&i| after[i] == Some(t)).collect();
        assert_eq!(
            a.erasing_to(t).unwrap(),
            expected,
            "edges erasing {edges:?} to value {t}"
        );
    }
}

/// Every multiset of up to `max_edges` edges on the ground and six other vertices, each drawing
/// once up to renaming (vertices first appear in increasing order in the sorted edge list):
/// every drawing joined to the ground with up to six edges has at most seven vertices.
/// A drawing as the tests write it: edges between small vertex numbers.
type Edges = [(usize, usize)];

fn every_drawing(max_edges: usize, visit: &mut dyn FnMut(&Edges)) {
    let pairs: Vec<(usize, usize)> = (0..7).flat_map(|a| (a..7).map(move |b| (a, b))).collect();
    fn grow(
        pairs: &[(usize, usize)],
        from: usize,
        left: usize,
        top: usize,
        edges: &mut Vec<(usize, usize)>,
        visit: &mut dyn FnMut(&Edges),
    ) {
        visit(edges);
        if left == 0 {
            return;
        }
        for (i, &(a, b)) in pairs.iter().enumerate().skip(from) {
            let mut t = top;
            let mut fresh = true;
            for v in [a, b] {
                if v > t {
                    if v == t + 1 {
                        t = v;
                    } else {
                        fresh = false;
                    }
                }
            }
            if fresh {
                edges.push((a, b));
                grow(pairs, i, left - 1, t, edges, visit);
                edges.pop();
            }
        }
    }
    grow(&pairs, 0, max_edges, 0, &mut Vec::new(), visit);
}

#[test]
fn every_drawing_of_up_to_six_edges() {
    let mut count = 0;
    let mut cycles = 0;
    every_drawing(6, &mut |edges| {
        check(edges);
        count += 1;
        if edges.iter().any(|&(u, v)| u == v) || edges.len() > 3 {
            cycles += 1;
        }
    });
    assert_eq!(count, 21_456);
    assert!(cycles > 10_000);
}

#[test]
fn random_larger_drawings() {
    let mut state = 0x1234_5678_9ABC_DEF1u64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for round in 0..200 {
        let edge_count = 7 + next(8) as usize;
        let vertices = 3 + next(8) as usize;
        let mut edges = Vec::new();
        for _ in 0..edge_count {
            let u = next(vertices as u64) as usize;
            // Bias towards edges near the ground so that most of the drawing stands.
            let v = if next(4) == 0 {
                0
            } else {
                next(vertices as u64) as usize
            };
            edges.push((u, v));
        }
        if round % 3 == 0 {
            // A long cycle through the ground, with chords: 2-edge cuts in numbers.
            edges.truncate(edge_count / 2);
            let ring = 2 + next(5) as usize;
            for i in 0..ring {
                let a = if i == 0 { 0 } else { vertices + i };
                let b = if i + 1 == ring { 0 } else { vertices + i + 1 };
                edges.push((a, b));
            }
        }
        check(&edges);
    }
}

#[test]
fn random_rings_of_pieces() {
    // Rings, through the ground or hanging on a stalk, whose vertices carry loops, stalks,
    // triangles and doubled ring edges: the classes of 2-edge cuts the erasures fold.
    let mut state = 0x0DDC_0FFE_E0DD_F00Du64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for _ in 0..150 {
        let mut edges = Vec::new();
        let hanging = next(3) == 0;
        let base = if hanging {
            edges.push((0, 1));
            1
        } else {
            0
        };
        let len = 3 + next(6) as usize;
        let ring: Vec<usize> = std::iter::once(base).chain(2..len + 1).collect();
        let mut fresh = len + 1;
        for i in 0..ring.len() {
            let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
            edges.push((a, b));
            if next(6) == 0 {
                edges.push((b, a));
            }
        }
        for &v in &ring {
            if edges.len() > 12 {
                break;
            }
            match next(5) {
                0 => edges.push((v, v)),
                1 => {
                    edges.push((v, fresh));
                    fresh += 1;
                }
                2 => {
                    edges.extend([(v, fresh), (fresh, fresh + 1), (fresh + 1, v)]);
                    fresh += 2;
                }
                _ => {}
            }
        }
        check(&edges);
    }
}

#[test]
fn the_notes_canes_are_nim_heaps_2_5_3_6() {
    // "várias canas ... equivalente a pilhas de 2, 5, 3 e 6 feijões"
    let mut edges = Vec::new();
    let mut next = 1;
    for len in [2, 5, 3, 6] {
        let mut below = 0;
        for _ in 0..len {
            edges.push((below, next));
            below = next;
            next += 1;
        }
    }
    check(&edges);
    assert_eq!(drawing(&edges).value(), 2 ^ 5 ^ 3 ^ 6);
}

/// The door of the notes: two posts on the ground and a lintel.
const DOOR: [(usize, usize); 3] = [(0, 1), (1, 2), (2, 0)];

#[test]
fn the_notes_door_is_worth_one_edge() {
    // "Pelo exemplo anterior, a porta é equivalente a uma aresta."
    check(&DOOR);
    assert_eq!(drawing(&DOOR).value(), 1);
}

#[test]
fn the_notes_house_has_value_1() {
    // The house of the notes, drawn from its description (the figure did not survive in the
    // text): two walls on the ground, a roof of four edges over them (a ceiling and three above
    // it), and the door. "O telhado desaparece ... (1+1+1+1 = 0). Dois segmentos, que somam
    // zero, e a aresta isolada é tudo que sobra. Assim, toda a figura tem um valor Grundy de 1."
    let walls = [(0, 3), (0, 4)];
    let roof = [(3, 4), (3, 5), (5, 6), (6, 4)];
    let house: Vec<(usize, usize)> = walls.iter().chain(&roof).chain(&DOOR).copied().collect();
    check(&house);
    let d = drawing(&house);
    let a = d.analyse();
    assert_eq!(a.value(), 1);
    // An N-position; erasing the lintel wins (two posts, 1 + 1 = 0, beside a fused 0).
    assert!(a.winning_moves().unwrap().contains(&7));
}

#[test]
fn fusion_of_a_loop_and_multi_edges() {
    // A loop is a stalk of length one; two edges between the same vertices a cycle.
    for edges in [
        vec![(0, 0)],
        vec![(0, 1), (1, 1)],
        vec![(0, 1), (0, 1)],
        vec![(0, 1), (0, 1), (1, 2), (1, 2), (2, 2)],
    ] {
        check(&edges);
    }
    assert_eq!(drawing(&[(0, 1), (1, 1)]).value(), 2);
    assert_eq!(drawing(&[(0, 1), (0, 1)]).value(), 0);
}

#[test]
fn the_budget_only_withholds_the_moves() {
    // A ring of 5 edges through the ground: every two of its edges form a 2-edge cut.
    let ring = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)];
    let d = drawing(&ring);
    let a = d.analyse_with_budget(0);
    assert!(!a.erasures_known());
    assert_eq!(a.winning_moves(), None);
    assert_eq!(a.value(), d.analyse().value());
    assert!(d.analyse().erasures_known());
}

#[test]
fn in_a_sum_with_a_heap_the_moves_erase_to_the_heap() {
    // hackenbush:... + *h: the winning moves in the drawing are the erasures leaving value h.
    let house = [
        (0, 3),
        (0, 4),
        (3, 4),
        (3, 5),
        (5, 6),
        (6, 4),
        (0, 1),
        (1, 2),
        (2, 0),
    ];
    let shapes: [&Edges; 3] = [
        &house,
        &[(0, 1), (1, 2), (2, 0), (1, 3)],
        &[(0, 1), (0, 1), (1, 1)],
    ];
    for edges in shapes {
        let mut brute = Brute::new(edges);
        let start = brute.grounded(brute.all());
        let value = brute.value(start);
        let text: Vec<String> = edges.iter().map(|(u, v)| format!("{u}-{v}")).collect();
        let drawing: Component = format!("hackenbush:{}", text.join(",")).parse().unwrap();
        for h in 0..=edges.len() as u64 + 1 {
            let a = analyse(&[drawing.clone(), Component::Nim(h as usize)]).unwrap();
            assert_eq!(a.value, Some((value ^ h) as u16));
            let mut got: Vec<String> = a
                .winning_moves
                .iter()
                .filter(|m| m.component == 0)
                .map(|m| m.to.clone())
                .collect();
            let mut expected: Vec<String> = (0..edges.len())
                .filter(|&i| value != h && brute.value(brute.erase(start, i)) == h)
                .map(|i| format!("erase {}", text[i]))
                .collect();
            got.sort();
            expected.sort();
            assert_eq!(got, expected, "{text:?} + *{h}");
        }
    }
}
