//! Green Hackenbush: a drawing of edges attached to the ground; a move erases one edge, and every
//! edge no longer joined to the ground by a path falls with it; whoever erases the last edge wins.
//!
//! A drawing is a list of edges `U-V` between numbered vertices; vertex 0 is the ground (every
//! edge touching the ground touches vertex 0), `U-U` is a loop, and an edge may be given twice.
//!
//! ```text
//!     3
//!     |        0-1 1-2 2-0 1-3: a triangle standing on the ground
//!     1---2    with a stalk on its top-left corner
//!      \ /
//!  ====0====   value 0 (a P-position)
//! ```
//!
//! The value comes from two principles:
//! - fusion: the vertices of a cycle may be fused into one vertex, its edges becoming loops,
//!   without changing the value. Fusing every 2-edge-connected part (what remains joined after
//!   any single edge is cut) leaves a tree of bridges whose vertices carry loops;
//! - the colon principle: a loop is a stalk of length one, the branches meeting at a vertex are
//!   worth a stalk of their nim-sum, and an edge carrying a branch of value v is a stalk of
//!   length v + 1.
//!
//! So the value is found in one depth-first search (Tarjan's bridges), in time linear in the
//! edges. The value after erasing each edge, which gives the winning moves, is found without
//! searching again for most edges: erasing a bridge removes its branch; erasing an edge of a
//! 2-edge-connected part that stays 2-edge-connected removes one loop; only edges that form
//! 2-edge cuts with other edges of their part make it be reduced again, once for each class of
//! such edges, whose erasures then break one ring of pieces at different places (see
//! [`Analysis`]).

use std::cell::OnceCell;
use std::collections::HashMap;

use crate::GrundyError;

/// The largest vertex number a drawing may use.
pub const MAX_VERTEX: u64 = u32::MAX as u64;

/// The most edges a drawing may have (each costs some tens of bytes while it is solved).
pub const MAX_EDGES: usize = 1 << 22;

/// How much work the winning moves may take by default (some ten seconds): each class of edges
/// that form 2-edge cuts with each other costs the size of its 2-edge-connected part (one
/// search), plus a sixty-fourth of the square of its size (a ring of pieces folded once per
/// edge, each step much cheaper than a search's).
pub const DEFAULT_MOVE_BUDGET: u64 = 400_000_000;

/// A Green Hackenbush drawing. Vertices are renumbered densely (the ground stays 0), so memory
/// grows with the edges, not with the vertex numbers given.
///
/// ```
/// use zermelo_grundy::hackenbush::Drawing;
/// // A triangle on the ground is worth one edge.
/// let triangle = Drawing::parse(["0-1", "1-2", "2-0"]).unwrap();
/// assert_eq!(triangle.value(), 1);
/// assert!(Drawing::parse(["1--2"]).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawing {
    /// Each edge's two ends, as dense vertex numbers.
    edges: Vec<[u32; 2]>,
    /// The vertex number as given, for each dense vertex (`labels[0] == 0`).
    labels: Vec<u64>,
}

/// One vertex number of an edge token.
fn parse_vertex(text: &str, token: &str) -> Result<u64, GrundyError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(GrundyError::BadDrawing(format!(
            "{token:?} is not an edge U-V between two vertex numbers (whole numbers, 0 for the \
             ground)"
        )));
    }
    match text.parse::<u64>() {
        Ok(n) if n <= MAX_VERTEX => Ok(n),
        _ => Err(GrundyError::BadDrawing(format!(
            "{token:?}: vertex number {text} is larger than {MAX_VERTEX}"
        ))),
    }
}

/// One edge token `U-V`.
fn parse_edge(token: &str) -> Result<(u64, u64), GrundyError> {
    let trimmed = token.trim();
    let (u, v) = trimmed.split_once('-').ok_or_else(|| {
        GrundyError::BadDrawing(format!(
            "{token:?} is not an edge U-V between two vertex numbers (whole numbers, 0 for the \
             ground)"
        ))
    })?;
    Ok((parse_vertex(u, token)?, parse_vertex(v, token)?))
}

impl Drawing {
    /// A drawing from its edges, given by vertex numbers (0 is the ground).
    ///
    /// ```
    /// use zermelo_grundy::hackenbush::Drawing;
    /// let d = Drawing::new(&[(0, 7), (7, 4_000_000_000)]).unwrap();
    /// assert_eq!(d.value(), 2);
    /// assert_eq!(d.edge_name(1), "7-4000000000");
    /// ```
    pub fn new(edges: &[(u64, u64)]) -> Result<Drawing, GrundyError> {
        if edges.len() > MAX_EDGES {
            return Err(GrundyError::BadDrawing(format!(
                "{} edges, more than the {MAX_EDGES} a drawing may have",
                edges.len()
            )));
        }
        let mut dense: HashMap<u64, u32> = HashMap::with_capacity(edges.len() + 1);
        let mut labels = vec![0u64];
        dense.insert(0, 0);
        let mut id = |v: u64| -> Result<u32, GrundyError> {
            if v > MAX_VERTEX {
                return Err(GrundyError::BadDrawing(format!(
                    "vertex number {v} is larger than {MAX_VERTEX}"
                )));
            }
            let next = labels.len() as u32;
            let d = *dense.entry(v).or_insert(next);
            if d == next {
                labels.push(v);
            }
            Ok(d)
        };
        let mut list = Vec::with_capacity(edges.len());
        for &(u, v) in edges {
            list.push([id(u)?, id(v)?]);
        }
        Ok(Drawing {
            edges: list,
            labels,
        })
    }

    /// A drawing from edge tokens `U-V` (`0-1`, `3-3` for a loop).
    ///
    /// ```
    /// use zermelo_grundy::hackenbush::Drawing;
    /// for bad in ["0-", "a-b", "1--2", "-1-2", "0-99999999999"] {
    ///     assert!(Drawing::parse([bad]).is_err(), "{bad}");
    /// }
    /// ```
    pub fn parse<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Result<Drawing, GrundyError> {
        let mut edges: Vec<(u64, u64)> = Vec::new();
        for token in tokens {
            // Refused as soon as the count passes the limit, not after holding every edge.
            if edges.len() == MAX_EDGES {
                return Err(GrundyError::BadDrawing(format!(
                    "more than the {MAX_EDGES} edges a drawing may have"
                )));
            }
            edges.push(parse_edge(token)?);
        }
        Drawing::new(&edges)
    }

    /// A drawing from the text of a file: edge tokens separated by spaces, commas or new lines,
    /// `#` starting a comment; or, if the text starts (after comments) with `graph`, `digraph`
    /// or `strict`, a Graphviz DOT graph (see [`Drawing::from_dot`]).
    ///
    /// ```
    /// use zermelo_grundy::hackenbush::Drawing;
    /// let d = Drawing::from_text("0-1 1-2 # a stalk\n2-0\n").unwrap();
    /// assert_eq!(d.edge_count(), 3);
    /// ```
    pub fn from_text(text: &str) -> Result<Drawing, GrundyError> {
        let head = strip_dot_comments(text).trim_start().to_ascii_lowercase();
        if ["graph", "digraph", "strict"]
            .iter()
            .any(|w| head.starts_with(w))
        {
            return Drawing::from_dot(text);
        }
        let tokens = text
            .lines()
            .map(|line| line.split('#').next().unwrap_or(""))
            .flat_map(|line| line.split(|c: char| c.is_whitespace() || c == ','))
            .filter(|t| !t.is_empty());
        Drawing::parse(tokens)
    }

    /// A drawing from a Graphviz DOT graph whose node names are vertex numbers (0 is the
    /// ground): every edge statement `a -- b -- c` (or `->`) adds its edges; attribute lists,
    /// node and attribute statements and comments are ignored. Subgraphs are not read.
    ///
    /// ```
    /// use zermelo_grundy::hackenbush::Drawing;
    /// let d = Drawing::from_dot("graph house { 0 -- 1 -- 2 -- 0 [color=green]; }").unwrap();
    /// assert_eq!(d.value(), 1);
    /// assert!(Drawing::from_dot("graph { a -- b }").is_err());
    /// ```
    pub fn from_dot(text: &str) -> Result<Drawing, GrundyError> {
        let bad = |why: String| GrundyError::BadDrawing(format!("DOT: {why}"));
        let text = strip_dot_comments(text);
        let open = text
            .find('{')
            .ok_or_else(|| bad("no '{' opens the graph".into()))?;
        let close = text
            .rfind('}')
            .filter(|&c| c > open)
            .ok_or_else(|| bad("no '}' closes the graph".into()))?;
        let body = &text[open + 1..close];
        if body.contains('{') || body.contains('}') {
            return Err(bad(
                "subgraphs are not read; list the edges at the top level".into(),
            ));
        }
        let body = strip_attributes(body).map_err(bad)?;
        let mut edges = Vec::new();
        for statement in body.split([';', '\n']) {
            let statement = statement.trim();
            if !(statement.contains("--") || statement.contains("->")) {
                // A node statement, an attribute statement or `key=value`: nothing to draw.
                continue;
            }
            let ends: Vec<&str> = statement
                .split("--")
                .flat_map(|part| part.split("->"))
                .map(|n| n.trim().trim_matches('"'))
                .collect();
            let mut previous: Option<u64> = None;
            for name in ends {
                let v = parse_vertex(name, statement).map_err(|_| {
                    bad(format!(
                        "{statement:?}: node {name:?} is not a vertex number (0 is the ground)"
                    ))
                })?;
                if let Some(u) = previous {
                    if edges.len() == MAX_EDGES {
                        return Err(bad(format!(
                            "more than the {MAX_EDGES} edges a drawing may have"
                        )));
                    }
                    edges.push((u, v));
                }
                previous = Some(v);
            }
        }
        Drawing::new(&edges)
    }

    /// How many edges the drawing has.
    #[must_use]
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Edge `i` as the vertex numbers given.
    #[must_use]
    pub fn edge(&self, i: usize) -> (u64, u64) {
        let [u, v] = self.edges[i];
        (self.labels[u as usize], self.labels[v as usize])
    }

    /// Edge `i` as text, `U-V`.
    #[must_use]
    pub fn edge_name(&self, i: usize) -> String {
        let (u, v) = self.edge(i);
        format!("{u}-{v}")
    }

    /// The edges as dense vertex numbers (the ground is 0; the others numbered from 1 in the
    /// order they first appear).
    #[must_use]
    pub fn dense_edges(&self) -> &[[u32; 2]] {
        &self.edges
    }

    /// The vertex number given for dense vertex `v` (0 for the ground).
    #[must_use]
    pub fn vertex_number(&self, v: usize) -> u64 {
        self.labels[v]
    }

    /// How many distinct vertices the drawing has, the ground included.
    #[must_use]
    pub fn vertex_count(&self) -> usize {
        self.labels.len()
    }

    /// The nim-value of the drawing.
    #[must_use]
    pub fn value(&self) -> u64 {
        Reduction::new(self.labels.len(), &self.edges, &[], 0, None).value()
    }

    /// The value, the fallen edges and the value after erasing each edge, within the default
    /// work budget.
    #[must_use]
    pub fn analyse(&self) -> Analysis<'_> {
        self.analyse_with_budget(DEFAULT_MOVE_BUDGET)
    }

    /// [`Drawing::analyse`] with a chosen work budget for the erasures (see
    /// [`DEFAULT_MOVE_BUDGET`]); beyond it, [`Analysis::erasures_known`] is false.
    #[must_use]
    pub fn analyse_with_budget(&self, budget: u64) -> Analysis<'_> {
        Analysis::new(self, budget)
    }
}

/// The text of a DOT file without its comments (`//`, `/* */`, and `#` lines).
fn strip_dot_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |end| &after[end + 2..]);
        } else if rest.starts_with("//")
            || (rest.starts_with('#') && (out.is_empty() || out.ends_with('\n')))
        {
            rest = rest.find('\n').map_or("", |end| &rest[end..]);
        } else {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// A DOT body without its attribute lists `[...]`.
fn strip_attributes(body: &str) -> Result<String, String> {
    let mut out = String::with_capacity(body.len());
    let mut depth = 0usize;
    for c in body.chars() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| "a ']' closes no attribute list".to_string())?;
            }
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    if depth > 0 {
        return Err("an attribute list '[' is not closed".into());
    }
    Ok(out)
}

/// No vertex or edge.
const NONE: u32 = u32::MAX;

/// One depth-first search of a drawing from its root, with the bridges found and the value of
/// every 2-edge-connected part (with what hangs above it) folded by the colon principle.
///
/// Removing the bridges cuts the search tree into subtrees, one per 2-edge-connected part; the
/// *head* of a part is its first vertex in preorder (the root, or the upper end of a bridge).
#[derive(Debug, Clone)]
struct Reduction {
    /// Vertices reached, in preorder (the root first).
    order: Vec<u32>,
    /// The edge by which each vertex was reached (NONE for the root and unreached vertices).
    parent_edge: Vec<u32>,
    /// The vertex each vertex was reached from.
    parent: Vec<u32>,
    /// Whether each edge is a bridge.
    bridge: Vec<bool>,
    /// The head of each reached vertex's part.
    head: Vec<u32>,
    /// For each head, the value of its part with everything above it, as a single stalk.
    acc: Vec<u64>,
}

impl Reduction {
    /// Searches the drawing of `n` vertices from `root`, leaving out edge `skip`; `weight[x]`
    /// (if given) is the value of stalks standing on vertex x in addition to its edges.
    fn new(n: usize, edges: &[[u32; 2]], weight: &[u64], root: u32, skip: Option<usize>) -> Self {
        // Adjacency in one array: each edge appears at both ends (a loop twice at its vertex).
        let mut start = vec![0u32; n + 1];
        for (e, &[u, v]) in edges.iter().enumerate() {
            if Some(e) != skip {
                start[u as usize + 1] += 1;
                start[v as usize + 1] += 1;
            }
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut adj = vec![(0u32, 0u32); start[n] as usize];
        for (e, &[u, v]) in edges.iter().enumerate() {
            if Some(e) != skip {
                adj[fill[u as usize] as usize] = (v, e as u32);
                fill[u as usize] += 1;
                adj[fill[v as usize] as usize] = (u, e as u32);
                fill[v as usize] += 1;
            }
        }
        drop(fill);

        let mut tin = vec![NONE; n];
        let mut low = vec![NONE; n];
        let mut parent = vec![NONE; n];
        let mut parent_edge = vec![NONE; n];
        let mut bridge = vec![false; edges.len()];
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<(u32, u32)> = Vec::new();
        tin[root as usize] = 0;
        low[root as usize] = 0;
        order.push(root);
        stack.push((root, start[root as usize]));
        while let Some(top) = stack.last_mut() {
            let v = top.0 as usize;
            if top.1 < start[v + 1] {
                let (w, e) = adj[top.1 as usize];
                top.1 += 1;
                // Only the very edge the search came by is skipped: a second edge between the
                // same two vertices closes a cycle.
                if e == parent_edge[v] {
                    continue;
                }
                let w = w as usize;
                if tin[w] == NONE {
                    let t = order.len() as u32;
                    tin[w] = t;
                    low[w] = t;
                    parent[w] = v as u32;
                    parent_edge[w] = e;
                    order.push(w as u32);
                    stack.push((w as u32, start[w]));
                } else {
                    low[v] = low[v].min(tin[w]);
                }
            } else {
                stack.pop();
                let p = parent[v];
                if p != NONE {
                    let p = p as usize;
                    low[p] = low[p].min(low[v]);
                    if low[v] > tin[p] {
                        bridge[parent_edge[v] as usize] = true;
                    }
                }
            }
        }

        let mut head = vec![NONE; n];
        for &v in &order {
            let v = v as usize;
            let e = parent_edge[v];
            head[v] = if e == NONE || bridge[e as usize] {
                v as u32
            } else {
                head[parent[v] as usize]
            };
        }
        // Fusion: each part is one vertex whose edges are loops, each a stalk of length one.
        let mut acc = vec![0u64; n];
        for (e, &[u, _]) in edges.iter().enumerate() {
            if Some(e) != skip && !bridge[e] && head[u as usize] != NONE {
                acc[head[u as usize] as usize] ^= 1;
            }
        }
        for (x, &w) in weight.iter().enumerate() {
            if head[x] != NONE {
                acc[head[x] as usize] ^= w;
            }
        }
        // Colon principle, from the leaves down: a bridge carrying a part of value a is a
        // stalk of length a + 1 on the part below it.
        for &v in order.iter().rev() {
            let v = v as usize;
            let e = parent_edge[v];
            if e != NONE && bridge[e as usize] {
                let below = head[parent[v] as usize] as usize;
                acc[below] ^= acc[v] + 1;
            }
        }
        Reduction {
            order,
            parent_edge,
            parent,
            bridge,
            head,
            acc,
        }
    }

    /// The value of the whole drawing (its root's part).
    fn value(&self) -> u64 {
        self.acc[self.order[0] as usize]
    }

    /// Whether vertex `v` heads a part other than the root's.
    fn is_upper_head(&self, v: usize) -> bool {
        let e = self.parent_edge[v];
        e != NONE && self.bridge[e as usize]
    }
}

/// What erasing one edge changes: the part whose value changes, and its new value.
#[derive(Debug, Clone, Copy)]
struct Erasure {
    head: u32,
    new_value: u64,
}

/// The analysis of a drawing: its value, the edges that fall at once, and the value after
/// erasing each edge.
///
/// Erasing an edge changes the value of one part only; the value of the drawing then follows
/// along the bridges below it. Rather than follow them for each edge, [`Analysis::erasing_to`]
/// first works out, from the ground up, which value each part would need for the drawing to be
/// worth the target, and compares. The erasures are worked out at the first question that needs
/// them.
///
/// ```
/// use zermelo_grundy::hackenbush::Drawing;
/// let d = Drawing::parse(["0-1", "1-2", "1-3", "5-6"]).unwrap();
/// let a = d.analyse();
/// assert_eq!(a.value(), 1);
/// assert_eq!(a.fallen(), &[3]);
/// // Erasing the trunk drops the whole tree.
/// assert_eq!(a.winning_moves(), Some(vec![0]));
/// ```
#[derive(Debug, Clone)]
pub struct Analysis<'a> {
    edges: &'a [[u32; 2]],
    reduction: Reduction,
    fallen: Vec<usize>,
    /// Whether erasing each edge needs its part reduced again (it may form a 2-edge cut).
    needs_reduction: Vec<bool>,
    /// The work those reductions take, and the most allowed.
    work: u64,
    budget: u64,
    /// For each edge still standing, what erasing it changes (None for fallen edges); None as a
    /// whole when the work budget does not allow it.
    erasures: OnceCell<Option<Vec<Option<Erasure>>>>,
}

impl<'a> Analysis<'a> {
    fn new(drawing: &'a Drawing, budget: u64) -> Analysis<'a> {
        let n = drawing.labels.len();
        let edges = &drawing.edges[..];
        let r = Reduction::new(n, edges, &[], 0, None);
        let reached = |v: u32| r.head[v as usize] != NONE;
        let fallen: Vec<usize> = (0..edges.len())
            .filter(|&e| !reached(edges[e][0]))
            .collect();

        // Which non-bridge edges may form a 2-edge cut with another edge: those sharing a
        // cycle-space label. If {e, f} is a cut, every cycle holds both or neither, so their
        // labels are equal whatever the random numbers; an edge whose label no other edge has
        // is therefore in no cut, and erasing it only takes one loop from its part. (A chance
        // coincidence of labels costs a reduction, never a wrong value.)
        let labels = cycle_labels(&r, edges);
        let mut counts: HashMap<u64, u32> = HashMap::new();
        for (e, &l) in labels.iter().enumerate() {
            if reached(edges[e][0]) && !r.bridge[e] {
                *counts.entry(l).or_insert(0) += 1;
            }
        }
        let needs_reduction: Vec<bool> = (0..edges.len())
            .map(|e| reached(edges[e][0]) && !r.bridge[e] && counts[&labels[e]] > 1)
            .collect();

        // One reduction per class of edges that form 2-edge cuts with each other, visiting its
        // part's vertices and edges; then each of the class's k edges folds a ring of k pieces.
        let mut part_size = vec![0u64; n];
        for &v in &r.order {
            part_size[r.head[v as usize] as usize] += 1;
        }
        for (e, &[u, _]) in edges.iter().enumerate() {
            if reached(u) && !r.bridge[e] {
                part_size[r.head[u as usize] as usize] += 1;
            }
        }
        let mut classes: HashMap<(u32, u64), u64> = HashMap::new();
        for (e, &[u, _]) in edges.iter().enumerate() {
            if needs_reduction[e] {
                *classes.entry((r.head[u as usize], labels[e])).or_insert(0) += 1;
            }
        }
        // A step of the fold costs about a sixty-fourth of a step of a search (measured: a
        // ring of 14,000 edges folds 2e8 steps in 0.1 s; a search takes some 35 ns a step).
        let work: u64 = classes
            .iter()
            .map(|(&(head, _), &k)| part_size[head as usize] + k * k / 64)
            .sum();
        Analysis {
            edges,
            reduction: r,
            fallen,
            needs_reduction,
            work,
            budget,
            erasures: OnceCell::new(),
        }
    }

    /// What erasing each edge changes, if within the budget.
    fn erasures(&self) -> Option<&[Option<Erasure>]> {
        self.erasures
            .get_or_init(|| {
                let r = &self.reduction;
                (self.work <= self.budget).then(|| {
                    let mut out: Vec<Option<Erasure>> = vec![None; self.edges.len()];
                    for (e, &[u, v]) in self.edges.iter().enumerate() {
                        if r.head[u as usize] == NONE {
                            continue;
                        }
                        if r.bridge[e] {
                            // The upper end heads the part the bridge carries, which falls.
                            let (lower, upper) = if r.parent_edge[v as usize] == e as u32 {
                                (u, v)
                            } else {
                                (v, u)
                            };
                            let head = r.head[lower as usize];
                            out[e] = Some(Erasure {
                                head,
                                new_value: r.acc[head as usize] ^ (r.acc[upper as usize] + 1),
                            });
                        } else if !self.needs_reduction[e] {
                            let head = r.head[u as usize];
                            out[e] = Some(Erasure {
                                head,
                                new_value: r.acc[head as usize] ^ 1,
                            });
                        }
                    }
                    reduce_cut_edges(r, self.edges, &self.needs_reduction, &mut out);
                    out
                })
            })
            .as_deref()
    }

    /// The nim-value of the drawing.
    #[must_use]
    pub fn value(&self) -> u64 {
        self.reduction.value()
    }

    /// The edges no path joins to the ground: they fall at once, before any move.
    #[must_use]
    pub fn fallen(&self) -> &[usize] {
        &self.fallen
    }

    /// Whether the values after each erasure can be computed within the work budget.
    #[must_use]
    pub fn erasures_known(&self) -> bool {
        self.work <= self.budget
    }

    /// The work the erasures need beyond one search (see [`DEFAULT_MOVE_BUDGET`]).
    #[must_use]
    pub fn erasure_work(&self) -> u64 {
        self.work
    }

    /// The edges whose erasure leaves a drawing of value `target` (ascending), or None if the
    /// erasures are beyond the work budget.
    #[must_use]
    pub fn erasing_to(&self, target: u64) -> Option<Vec<usize>> {
        if target == self.value() {
            // A position's value is the least value none of its options has.
            return Some(Vec::new());
        }
        let erasures = self.erasures()?;
        let r = &self.reduction;
        // The value each part must take, the rest unchanged, for the drawing to be worth the
        // target: from the ground up, a part above a bridge must make the part below it right.
        let mut need: Vec<Option<u64>> = vec![None; r.acc.len()];
        need[r.order[0] as usize] = Some(target);
        for &v in &r.order[1..] {
            let v = v as usize;
            if !r.is_upper_head(v) {
                continue;
            }
            let below = r.head[r.parent[v] as usize] as usize;
            need[v] = need[below].and_then(|t| {
                // The stalk this part stands for must become this long (0: no stalk at all).
                let stalk = r.acc[below] ^ t ^ (r.acc[v] + 1);
                stalk.checked_sub(1)
            });
        }
        Some(
            erasures
                .iter()
                .enumerate()
                .filter_map(|(e, x)| {
                    let x = (*x)?;
                    (need[x.head as usize] == Some(x.new_value)).then_some(e)
                })
                .collect(),
        )
    }

    /// The winning moves (edges to erase, ascending), or None if beyond the work budget.
    #[must_use]
    pub fn winning_moves(&self) -> Option<Vec<usize>> {
        self.erasing_to(0)
    }
}

/// Cycle-space labels: a random number for each edge that closes a cycle in the search, and for
/// each tree edge the nim-sum of the numbers of the cycle-closing edges whose cycles use it.
fn cycle_labels(r: &Reduction, edges: &[[u32; 2]]) -> Vec<u64> {
    let n = r.head.len();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        // xorshift64*: fast and fixed, so runs are repeatable.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut labels = vec![0u64; edges.len()];
    let mut at = vec![0u64; n];
    for (e, &[u, v]) in edges.iter().enumerate() {
        let tree = r.parent_edge[u as usize] == e as u32 || r.parent_edge[v as usize] == e as u32;
        if r.head[u as usize] != NONE && !tree {
            let l = next();
            labels[e] = l;
            at[u as usize] ^= l;
            at[v as usize] ^= l;
        }
    }
    for &v in r.order.iter().rev() {
        let v = v as usize;
        let e = r.parent_edge[v];
        if e != NONE {
            labels[e as usize] = at[v];
            at[r.parent[v] as usize] ^= at[v];
        }
    }
    labels
}

/// The erasures of the edges that may form a 2-edge cut: the part is reduced again without one
/// such edge, with everything standing on the part as stalks on its vertices; the bridges that
/// reduction finds are the rest of the edge's class, whose erasures the [`Ring`] gives.
fn reduce_cut_edges(
    r: &Reduction,
    edges: &[[u32; 2]],
    needs_reduction: &[bool],
    out: &mut [Option<Erasure>],
) {
    let n = r.head.len();
    // Group the edges to reduce by part.
    let mut by_part: HashMap<u32, Vec<usize>> = HashMap::new();
    for (e, &[u, _]) in edges.iter().enumerate() {
        if needs_reduction[e] {
            by_part.entry(r.head[u as usize]).or_default().push(e);
        }
    }
    if by_part.is_empty() {
        return;
    }
    // Each vertex's stalks: the parts standing on it by a bridge, each a stalk of value + 1.
    let mut weight = vec![0u64; n];
    for &v in &r.order {
        if r.is_upper_head(v as usize) {
            weight[r.parent[v as usize] as usize] ^= r.acc[v as usize] + 1;
        }
    }
    let mut members: HashMap<u32, Vec<u32>> = HashMap::new();
    for &v in &r.order {
        let h = r.head[v as usize];
        if by_part.contains_key(&h) {
            members.entry(h).or_default().push(v);
        }
    }
    let mut inner: HashMap<u32, Vec<usize>> = HashMap::new();
    for (e, &[u, _]) in edges.iter().enumerate() {
        let h = r.head[u as usize];
        if h != NONE && !r.bridge[e] && by_part.contains_key(&h) {
            inner.entry(h).or_default().push(e);
        }
    }
    let mut local = vec![NONE; n];
    for (head, cut_edges) in by_part {
        let vertices = &members[&head];
        for (i, &v) in vertices.iter().enumerate() {
            local[v as usize] = i as u32;
        }
        let part_edges = &inner[&head];
        let local_edges: Vec<[u32; 2]> = part_edges
            .iter()
            .map(|&e| [local[edges[e][0] as usize], local[edges[e][1] as usize]])
            .collect();
        let local_weight: Vec<u64> = vertices.iter().map(|&v| weight[v as usize]).collect();
        let mut done = vec![false; part_edges.len()];
        for e in cut_edges {
            let skip = part_edges
                .binary_search(&e)
                .expect("the edge belongs to its part");
            if done[skip] {
                continue;
            }
            // The head is the part's first vertex, so it is local vertex 0.
            let sub = Reduction::new(vertices.len(), &local_edges, &local_weight, 0, Some(skip));
            out[e] = Some(Erasure {
                head,
                new_value: sub.value(),
            });
            done[skip] = true;
            // The bridges left are the edges that form a 2-edge cut with this one: erasing any
            // of them breaks the same ring of pieces at another place.
            if let Some(ring) = Ring::new(&sub, &local_edges, &local_weight, skip) {
                for (f, new_value) in ring.erasures() {
                    out[part_edges[f]] = Some(Erasure { head, new_value });
                    done[f] = true;
                }
            }
        }
        for &v in vertices {
            local[v as usize] = NONE;
        }
    }
}

/// A 2-edge-connected part seen around one class of 2-edge cuts: the edges of the class (any
/// two of which form a cut) cut the part into pieces that lie on a ring, each piece joined to
/// the next by one edge of the class. Each piece is 2-edge-connected, so by fusion it is worth a
/// vertex with its edges as loops and its stalks; erasing a class edge leaves the ring as a
/// path of pieces, two arms hanging from the head's piece, folded by the colon principle.
struct Ring {
    /// Each piece's value as one vertex (loops and stalks), the head's piece first, then
    /// around the ring.
    pieces: Vec<u64>,
    /// The class edge after each piece: `edges[i]` joins piece i to piece i + 1 (mod length).
    edges: Vec<usize>,
    /// The class edge the reduction left out (its value is known already).
    skip: usize,
}

impl Ring {
    /// The ring around `skip` from the reduction `sub` of the part without it, or None if the
    /// reduction left no bridge (`skip` forms no cut) or the pieces do not close a ring.
    fn new(sub: &Reduction, edges: &[[u32; 2]], weight: &[u64], skip: usize) -> Option<Ring> {
        let head = |x: u32| sub.head[x as usize] as usize;
        let class: Vec<usize> = (0..edges.len())
            .filter(|&f| f == skip || sub.bridge[f])
            .collect();
        if class.len() < 2 {
            return None;
        }
        let mut value = vec![0u64; sub.head.len()];
        for (x, &w) in weight.iter().enumerate() {
            value[head(x as u32)] ^= w;
        }
        for (f, &[u, v]) in edges.iter().enumerate() {
            if f != skip && !sub.bridge[f] {
                if head(u) != head(v) {
                    return None;
                }
                value[head(u)] ^= 1;
            }
        }
        // Each piece meets exactly two class edges; walk the ring from the head's piece.
        let mut meets: HashMap<usize, Vec<(usize, usize)>> = HashMap::new();
        for &f in &class {
            let [u, v] = edges[f];
            meets.entry(head(u)).or_default().push((head(v), f));
            meets.entry(head(v)).or_default().push((head(u), f));
        }
        if meets.len() != class.len() || meets.values().any(|m| m.len() != 2) {
            return None;
        }
        let start = head(sub.order[0]);
        let mut pieces = vec![value[start]];
        let mut ring_edges = Vec::with_capacity(class.len());
        let (mut at, mut came) = (start, usize::MAX);
        loop {
            let &(next, f) = meets.get(&at)?.iter().find(|&&(_, f)| f != came)?;
            ring_edges.push(f);
            if next == start {
                break;
            }
            if ring_edges.len() == class.len() {
                return None;
            }
            pieces.push(value[next]);
            (at, came) = (next, f);
        }
        if pieces.len() != class.len() {
            return None;
        }
        Some(Ring {
            pieces,
            edges: ring_edges,
            skip,
        })
    }

    /// The value of the part after erasing each class edge but the one left out.
    fn erasures(&self) -> Vec<(usize, u64)> {
        let k = self.pieces.len();
        // The stalk a path of pieces stands for, given from its far end to its near end.
        let arm = |far_to_near: &mut dyn Iterator<Item = &u64>| {
            far_to_near
                .fold(None, |x: Option<u64>, &b| Some(b ^ x.map_or(0, |v| v + 1)))
                .map_or(0, |v| v + 1)
        };
        (0..k)
            .filter(|&i| self.edges[i] != self.skip)
            .map(|i| {
                // Erasing the edge after piece i: pieces 1..=i hang on one side, i+1.. on the
                // other.
                let one = arm(&mut self.pieces[1..=i].iter().rev());
                let other = arm(&mut self.pieces[i + 1..].iter());
                (self.edges[i], self.pieces[0] ^ one ^ other)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertex_numbers_are_renumbered_densely() {
        let d = Drawing::parse(["0-4000000000", "4000000000-17", "17-17"]).unwrap();
        assert_eq!(d.vertex_count(), 3);
        assert_eq!(d.dense_edges(), &[[0, 1], [1, 2], [2, 2]]);
        assert_eq!(d.edge_name(1), "4000000000-17");
        assert_eq!(d.vertex_number(1), 4_000_000_000);
    }

    #[test]
    fn dot_files_with_comments_chains_and_attributes() {
        let text = "# made by hand\n/* a door */ strict graph door {\n  rankdir=BT\n  \
                    node [shape=point] // dots\n  \"0\" -> 1 -> 2 [color=\"green\"];\n  2 -- 0\n}\n";
        let d = Drawing::from_text(text).unwrap();
        assert_eq!(d.edge_count(), 3);
        assert_eq!(d.value(), 1);
        for bad in [
            "graph { 0 -- 1 ",
            "graph { 0 -- }",
            "graph { 0 -- 1 ] }",
            "0 -- 1",
        ] {
            assert!(Drawing::from_dot(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn too_many_edges_are_refused() {
        let err = Drawing::parse(std::iter::repeat_n("0-1", MAX_EDGES + 1)).unwrap_err();
        assert!(err.to_string().contains("more than the"), "{err}");
    }

    #[test]
    fn token_files_take_commas_and_comments() {
        let d = Drawing::from_text("0-1,1-2 # stalk\n\n2-2\n").unwrap();
        assert_eq!(d.edge_count(), 3);
        assert!(Drawing::from_text("0-1 2").is_err());
    }
}
