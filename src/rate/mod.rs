//! Human difficulty ratings: Sudoku Explainer's ER/EP/ED as the reference
//! rater `serate` (Sukaku Explainer v1.18.1, default options) computes them.
//! Pure: cells in (row-major `u8`, 0 blank, 9x9), rating out; no I/O.
//!
//! The rater repeats serate's loop: try the techniques in serate's order,
//! apply the first hint the first successful technique finds (each
//! technique scans in serate's order, so the same hint is chosen), until the
//! grid is solved. ER is the hardest step, EP the hardest step up to the
//! first placement, ED the first step. Techniques are rated as serate rates
//! them (hidden single in a box 1.2, in a line 1.5, and so on).
//!
//! Not every serate technique is implemented yet ([`Technique::implemented`]).
//! A puzzle whose path reaches one that is not gets [`Outcome::Unrated`],
//! never a guessed number: the techniques before it in serate's order found
//! nothing, so the next step would be that technique or a later one.

mod advanced;
mod aligned;
mod analysis;
mod chains;
mod dynamic;
mod grid;
mod intersections;
mod links;
mod nested;
mod reach;
mod singles;
mod subsets;
mod unique;
mod wings;

pub use analysis::{steps_json, tenths, RateAnalysis};
use grid::Grid;

use crate::solver::{self, Boxes};

macro_rules! techniques {
    ($( $id:ident = $name:literal, $implemented:literal, $min:literal; )*) => {
        /// A solving technique of serate's default set, in serate's order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Technique { $( #[doc = $name] $id, )* }

        impl Technique {
            /// Every technique of serate's default set, in the order serate tries them.
            pub const ALL: &'static [Technique] = &[ $( Technique::$id, )* ];

            /// serate's identifier (its `SolvingTechnique` enum), e.g. `HiddenSingle`.
            pub fn id(self) -> &'static str {
                match self { $( Technique::$id => stringify!($id), )* }
            }

            /// The name serate prints for the technique, e.g. `Hidden Single`.
            pub fn name(self) -> &'static str {
                match self { $( Technique::$id => $name, )* }
            }

            /// True when this rater implements the technique exactly as serate does.
            pub fn implemented(self) -> bool {
                match self { $( Technique::$id => $implemented, )* }
            }

            /// The lowest rating serate gives a hint of this technique, in
            /// tenths (its hint classes' `getDifficulty`; for the chains a
            /// lower bound).
            pub fn min_rating(self) -> Tenths {
                match self { $( Technique::$id => $min, )* }
            }
        }
    };
}

techniques! {
    HiddenSingle = "Hidden Single", true, 10;
    DirectPointing = "Direct Pointing", true, 17;
    DirectHiddenPair = "Direct Hidden Pair", true, 20;
    NakedSingle = "Naked Single", true, 23;
    DirectHiddenTriplet = "Direct Hidden Triplet", true, 25;
    PointingClaiming = "Pointing & Claiming", true, 26;
    NakedPair = "Naked Pair", true, 30;
    XWing = "X-Wing", true, 32;
    HiddenPair = "Hidden Pair", true, 34;
    NakedTriplet = "Naked Triplet", true, 36;
    Swordfish = "Swordfish", true, 38;
    HiddenTriplet = "Hidden Triplet", true, 40;
    TurbotFish = "Scraper, Kite, Turbot", true, 40;
    XYWing = "XY-Wing", true, 42;
    XYZWing = "XYZ-Wing", true, 44;
    UniqueLoop = "Unique Rectangle / Loop", true, 45;
    NakedQuad = "Naked Quad", true, 50;
    Jellyfish = "Jellyfish", true, 52;
    HiddenQuad = "Hidden Quad", true, 54;
    ThreeStrongLinks = "3 Strong-linked Fishes", true, 54;
    WXYZWing = "WXYZ-Wing", true, 55;
    BivalueUniversalGrave = "Bivalue Universal Grave", true, 56;
    FourStrongLinks = "4 Strong-Linked Fishes", true, 58;
    VWXYZWing = "VWXYZ-Wing", true, 62;
    AlignedPairExclusion = "Aligned Pair Exclusion", true, 62;
    UVWXYZWing = "UVWXYZ-Wing", true, 66;
    ForcingChainCycle = "Forcing Chains & Cycles", true, 65;
    TUVWXYZWing = "TUVWXYZ-Wing", true, 75;
    AlignedTripletExclusion = "Aligned Triplet Exclusion", true, 75;
    NishioForcingChain = "Nishio Forcing Chains", true, 75;
    MultipleForcingChain = "Multiple Forcing Chains", true, 80;
    DynamicForcingChain = "Dynamic Forcing Chains", true, 85;
    DynamicForcingChainPlus = "Dynamic Forcing Chains (+)", true, 90;
    NestedForcingChain = "Nested Forcing Chains", true, 95;
}

impl Technique {
    /// The technique whose serate identifier is `id` (case-insensitive).
    pub fn from_id(id: &str) -> Option<Technique> {
        Technique::ALL
            .iter()
            .copied()
            .find(|t| t.id().eq_ignore_ascii_case(id))
    }

    fn bit(self) -> u64 {
        1 << (self as u32)
    }

    /// Finds the hint serate would take with this technique; `Err` when the
    /// technique (or this case of it) is not implemented.
    fn find(self, g: &Grid) -> Result<Option<Hint>, ()> {
        use Technique::*;
        Ok(match self {
            HiddenSingle => singles::hidden_single(g),
            DirectPointing => intersections::locking(g, true),
            DirectHiddenPair => subsets::hidden_set(g, 2, true),
            NakedSingle => singles::naked_single(g),
            DirectHiddenTriplet => subsets::hidden_set(g, 3, true),
            PointingClaiming => intersections::locking(g, false),
            NakedPair => subsets::naked_set(g, 2),
            XWing => subsets::fish(g, 2),
            HiddenPair => subsets::hidden_set(g, 2, false),
            NakedTriplet => subsets::naked_set(g, 3),
            Swordfish => subsets::fish(g, 3),
            HiddenTriplet => subsets::hidden_set(g, 3, false),
            XYWing => wings::xy_wing(g, false),
            XYZWing => wings::xy_wing(g, true),
            NakedQuad => subsets::naked_set(g, 4),
            Jellyfish => subsets::fish(g, 4),
            HiddenQuad => subsets::hidden_set(g, 4, false),
            TurbotFish => return links::two_links(g),
            UniqueLoop => unique::unique_loop(g),
            ThreeStrongLinks => return links::n_links(g, 3),
            WXYZWing => wings::als_wing(g, 3),
            BivalueUniversalGrave => unique::bug(g),
            FourStrongLinks => return links::n_links(g, 4),
            VWXYZWing => wings::als_wing(g, 4),
            AlignedPairExclusion => aligned::aligned_pair(g),
            UVWXYZWing => wings::als_wing(g, 5),
            TUVWXYZWing => wings::als_wing(g, 6),
            AlignedTripletExclusion => aligned::aligned_triplet(g),
            ForcingChainCycle => chains::forcing_chains_cycles(g),
            NishioForcingChain => dynamic::forcing_chains(g, dynamic::Kind::Nishio),
            MultipleForcingChain => dynamic::forcing_chains(g, dynamic::Kind::Multiple),
            DynamicForcingChain => dynamic::forcing_chains(g, dynamic::Kind::Dynamic),
            DynamicForcingChainPlus => dynamic::forcing_chains(g, dynamic::Kind::Nested(1)),
            // serate's levels 2 and 3, then level 4 with nesting limits 0-3.
            NestedForcingChain => dynamic::nested_forcing_chains(g),
        })
    }
}

/// A set of techniques (serate's `--techs`): the rater uses only these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques(u64);

impl Techniques {
    /// serate's default set.
    pub fn all() -> Techniques {
        Techniques(Technique::ALL.iter().fold(0, |m, t| m | t.bit()))
    }

    /// No technique.
    pub fn none() -> Techniques {
        Techniques(0)
    }

    /// This set plus `t`.
    pub fn with(self, t: Technique) -> Techniques {
        Techniques(self.0 | t.bit())
    }

    /// This set without `t`.
    pub fn without(self, t: Technique) -> Techniques {
        Techniques(self.0 & !t.bit())
    }

    /// True when `t` is in the set.
    pub fn contains(self, t: Technique) -> bool {
        self.0 & t.bit() != 0
    }

    /// Parses a comma-separated list of serate identifiers
    /// (`HiddenSingle,NakedSingle`). A list naming none (`""`, `","`) is
    /// refused: with no technique every puzzle would be unrated.
    pub fn parse(list: &str) -> Result<Techniques, String> {
        if list.split(',').all(|s| s.trim().is_empty()) {
            return Err(format!(
                "{list:?} names no technique, so every puzzle would be unrated; give serate \
                 ids such as HiddenSingle,NakedSingle (`--techniques list` shows them)"
            ));
        }
        let mut set = Techniques::none();
        for id in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let t = Technique::from_id(id).ok_or_else(|| {
                format!(
                    "unknown technique {id:?}; known: {}",
                    Technique::ALL
                        .iter()
                        .map(|t| t.id())
                        .collect::<Vec<_>>()
                        .join(",")
                )
            })?;
            set = set.with(t);
        }
        Ok(set)
    }
}

impl Default for Techniques {
    fn default() -> Self {
        Techniques::all()
    }
}

/// A rating in tenths: `23` is 2.3.
pub type Tenths = u8;

/// serate's three numbers for a puzzle, in tenths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Rating {
    /// Hardest step.
    pub er: Tenths,
    /// Hardest step up to and including the first placement.
    pub ep: Tenths,
    /// First step.
    pub ed: Tenths,
}

impl std::fmt::Display for Rating {
    /// serate's `%r/%p/%d`: `4.2/1.5/1.2`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let t = |x: u8| format!("{}.{}", x / 10, x % 10);
        write!(f, "{}/{}/{}", t(self.er), t(self.ep), t(self.ed))
    }
}

/// What rating a puzzle gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Rated: the same three numbers as serate.
    Rated(Rating),
    /// The path reached a step this rater cannot take exactly: `next` is the
    /// first technique in serate's order that is enabled but not
    /// implemented (`None` when every enabled technique was tried and
    /// failed: the puzzle needs a technique outside the chosen set).
    /// `so_far` is the rating of the steps taken until then.
    Unrated {
        /// The technique the next step would need (or a later one).
        next: Option<Technique>,
        /// ER/EP/ED of the steps before it (EP/ED 0 when not reached).
        so_far: Rating,
    },
    /// The puzzle has no solution (`solutions == 0`) or several (2 = "at least 2").
    NotUnique {
        /// 0 or 2.
        solutions: u32,
    },
}

/// One step of a solving path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// Its rating, in tenths.
    pub rating: Tenths,
    /// The cell (0-80, row-major) and digit placed, if any.
    pub placed: Option<(u8, u8)>,
    /// The (cell, digit) candidates removed, by cell then digit.
    pub eliminated: Vec<(u8, u8)>,
    /// The cells of the pattern, for the techniques that have one: a
    /// unique rectangle's or loop's cells in loop order; a cycle's or
    /// forcing chain's cells (Forcing Chains & Cycles), each once, walked
    /// back from its end to its start as serate lists them. Empty
    /// otherwise.
    pub cells: Vec<u8>,
    /// For Nested Forcing Chains: the chains nested inside this step's
    /// chains (each once, in the order its chains meet them), each of which
    /// removed a candidate on the working grid of the net that used it.
    /// Empty for every other technique.
    pub inner: Vec<InnerChain>,
}

/// A chain nested inside a Nested Forcing Chains step: serate's inner
/// hint (its `FullChain`), on the working grid of the net that ran it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InnerChain {
    /// Forcing Chains & Cycles (levels 2 and 3), Multiple Forcing Chains
    /// (level 3), or Dynamic Forcing Chains (+) and up (level 4).
    pub technique: Technique,
    /// The inner chain's own rating, in tenths (its complexity is part of
    /// the step's).
    pub rating: Tenths,
    /// The (cell, digit) candidates it removes there, by cell then digit.
    pub eliminated: Vec<(u8, u8)>,
    /// For a cycle or forcing chain (Forcing Chains & Cycles) its cells,
    /// each once, from its end back to its start; empty otherwise.
    pub cells: Vec<u8>,
}

/// A hint: what one technique found, before it is applied.
#[derive(Clone)]
pub(crate) struct Hint {
    pub tech: Technique,
    pub rating: Tenths,
    pub place: Option<(u8, u8)>,
    /// Candidates to remove, per digit (index `d - 1`) as cell masks.
    pub elim: [u128; 9],
    /// The pattern's cells ([`Step::cells`]).
    pub cells: Vec<u8>,
    /// The chains nested inside ([`Step::inner`]).
    pub inner: Vec<InnerChain>,
}

impl Hint {
    fn new(tech: Technique, rating: Tenths) -> Hint {
        Hint {
            tech,
            rating,
            place: None,
            elim: [0; 9],
            cells: Vec::new(),
            inner: Vec::new(),
        }
    }

    fn place(tech: Technique, rating: Tenths, cell: u8, digit: u8) -> Hint {
        Hint {
            place: Some((cell, digit)),
            ..Hint::new(tech, rating)
        }
    }

    /// Removals first, then the placement (serate's `apply`).
    fn apply(&self, g: &mut Grid) {
        for d in 1..=9u8 {
            if self.elim[d as usize - 1] != 0 {
                g.eliminate(d, self.elim[d as usize - 1]);
            }
        }
        if let Some((c, d)) = self.place {
            g.place(c as usize, d);
        }
    }

    fn step(&self, g: &Grid) -> Step {
        let mut eliminated = Vec::new();
        for c in 0..81u8 {
            for d in 1..=9u8 {
                if self.elim[d as usize - 1] >> c & 1 != 0
                    && g.cells[c as usize] >> (d - 1) & 1 != 0
                {
                    eliminated.push((c, d));
                }
            }
        }
        Step {
            technique: self.tech,
            rating: self.rating,
            placed: self.place,
            eliminated,
            cells: self.cells.clone(),
            inner: self.inner.clone(),
        }
    }
}

/// A rater: serate's loop over a chosen set of techniques.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rater {
    techniques: Techniques,
}

impl Rater {
    /// A rater with serate's default techniques.
    pub fn new() -> Rater {
        Rater::default()
    }

    /// A rater limited to `techniques` (serate's `--techs`).
    pub fn with_techniques(techniques: Techniques) -> Rater {
        Rater { techniques }
    }

    /// The highest ER this rater always gives exactly (in tenths): every
    /// puzzle whose serate ER is at most this is rated, never `unrated`.
    /// A path stops only at an enabled technique not implemented, whose
    /// hint would rate at least that technique's [`Technique::min_rating`];
    /// so this is the lowest of those, less 0.1 ([`Tenths::MAX`] when
    /// there is none: every rating is exact).
    pub fn covers(&self) -> Tenths {
        Technique::ALL
            .iter()
            .filter(|t| self.techniques.contains(**t) && !t.implemented())
            .map(|t| t.min_rating() - 1)
            .min()
            .unwrap_or(Tenths::MAX)
    }

    /// Rates a 9x9 puzzle (81 cells, row-major, 0 blank).
    ///
    /// # Panics
    /// If `cells` does not hold 81 cells of 0-9.
    pub fn rate(&self, cells: &[u8]) -> Outcome {
        self.run(cells, None)
    }

    /// Rates a puzzle and records its solving path into `steps` (cleared first).
    pub fn rate_steps(&self, cells: &[u8], steps: &mut Vec<Step>) -> Outcome {
        steps.clear();
        self.run(cells, Some(steps))
    }

    fn run(&self, cells: &[u8], mut steps: Option<&mut Vec<Step>>) -> Outcome {
        assert!(cells.len() == 81 && cells.iter().all(|&v| v <= 9));
        let mut answer = [0u8; 81];
        if solver::find_conflict(Boxes::NINE, cells).is_some() {
            return Outcome::NotUnique { solutions: 0 };
        }
        let count = solver::solve(Boxes::NINE, cells, 2, &mut answer).count;
        if count != 1 {
            return Outcome::NotUnique {
                solutions: count.min(2),
            };
        }
        let mut g = Grid::new(cells);
        let mut r = Rating::default();
        let mut placed_yet = false;
        while g.empty != 0 {
            let mut found = None;
            let mut blocked = None;
            for &t in Technique::ALL {
                if !self.techniques.contains(t) {
                    continue;
                }
                match t.find(&g) {
                    Ok(None) => {}
                    Ok(Some(h)) => {
                        found = Some(h);
                        break;
                    }
                    Err(()) => {
                        blocked = Some(t);
                        break;
                    }
                }
            }
            let Some(h) = found else {
                return Outcome::Unrated {
                    next: blocked,
                    so_far: r,
                };
            };
            if let Some(s) = steps.as_deref_mut() {
                s.push(h.step(&g));
            }
            h.apply(&mut g);
            r.er = r.er.max(h.rating);
            if !placed_yet {
                if r.ed == 0 {
                    r.ed = r.er;
                }
                if h.place.is_some() {
                    r.ep = r.er;
                    placed_yet = true;
                }
            }
        }
        Outcome::Rated(r)
    }
}

/// Rates with serate's default techniques: shorthand for [`Rater::rate`].
pub fn rate(cells: &[u8]) -> Outcome {
    Rater::new().rate(cells)
}

#[cfg(test)]
mod tests;
