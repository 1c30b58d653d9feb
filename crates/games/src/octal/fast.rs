//! The fast nim-sequence of an octal code (see [`super::fast_values`]).
//!
//! Heaps are computed in blocks of [`LANES`] consecutive sizes, one *lane* each. A lane holds one
//! byte per value: marked when some option of its heap has that value. A split of a heap of the
//! block whose two parts both lie below the block reads only values already known, so those
//! splits are marked for all the lanes at once, in one pass over the splits that reads the
//! sixteen values `G(rest - a), …, G(rest - a + 15)` side by side instead of sixteen scattered
//! ones. Then the lanes are finished in order (each may depend on the previous ones): the splits
//! that reach into the block, the moves that leave one heap or none, and the value.
//!
//! Each block is computed in one of two modes, chosen at every power of two by the cost expected
//! for the next stretch:
//!
//! - *Exhaustive*: every split is marked; the value is the first unmarked one. Quadratic, like
//!   the definition, with a smaller constant.
//! - *Sparse space* (Winning Ways, ch. 4, "Sparse Space Spells Speed"): under a mask, the
//!   *parity* of a value is the parity of its bits under the mask. A heap is *sparse* when its
//!   value has parity 0 — or, in the "domain" variant of Flammenkamp's notes (for codes whose
//!   splits all remove counts of one parity; 0.104, 0.205 and 0.324 have such a space and no
//!   other), when its value's parity is that of the heap, or of the heap plus one. The parity of
//!   `G(a) ^ G(b)` is the sum of the parities, so the splits of `rest` with exactly one sparse
//!   part all give values of one parity, π, and the other splits all give the other parity. With
//!   a good mask few heaps are sparse: pairing each of them with the heap that completes the
//!   split finds every option of parity π, so the first unmarked value of parity π is exact. The
//!   values of the other parity below it are options that the many other splits give over and
//!   over; they are looked for among those splits in an order that finds them fast, and the scan
//!   stops as soon as all are found (only when one is really missing does it run through every
//!   split).
//!
//! Both modes give exactly the values of the definition whatever the mask; the mask only decides
//! how fast.

use super::{
    Ending, NO_HEAP, ONE_HEAP, OctalCode, TWO_HEAPS, find_period_in, report_due, split_work,
};
use std::ops::ControlFlow;

/// Heaps computed together: one lane each.
const LANES: usize = 16;
/// Splits looked at together in the scan for missing values.
const CHUNK: usize = 32;
/// Chunks of that scan marked for every lane of a block before the lanes are finished one by
/// one: nearly every heap needs them, and marking them for the block at once is cheaper.
const PREFIX_CHUNKS: usize = 32;
/// Every value fits in 16 bits while the fast method runs (see [`Overflow`]).
pub(super) const VALUES: usize = 1 << 16;
/// Lanes lie a little more than 64 KiB apart, so that the same value in different lanes does not
/// fall into the same cache set.
const STRIDE: usize = VALUES + 192;
/// Heaps below this are computed one at a time, before the first choice of mode.
const FIRST_BLOCK: usize = 64;
/// The number of values (at most) a scan for missing values compares each split against instead
/// of marking it.
const NEEDLES: usize = 4;

type Lane = [u8; VALUES];

/// The marks of the lanes of one block.
struct Lanes(Box<[u8; STRIDE * LANES]>);

impl std::fmt::Debug for Lanes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Lanes")
    }
}

impl Lanes {
    fn new() -> Lanes {
        Lanes(
            vec![0; STRIDE * LANES]
                .into_boxed_slice()
                .try_into()
                .expect("STRIDE * LANES bytes"),
        )
    }

    fn lane(&mut self, l: usize) -> &mut Lane {
        (&mut self.0[l * STRIDE..][..VALUES])
            .try_into()
            .expect("a lane is VALUES bytes")
    }

    /// Unmarks the values below `cap` in every lane (no mark was ever made above it).
    fn clear(&mut self, cap: usize) {
        for l in 0..LANES {
            self.lane(l)[..cap].fill(0);
        }
    }
}

/// Eight marks as the bytes of a word, value `8w` in the lowest.
fn marks_word(lane: &Lane, w: usize) -> u64 {
    u64::from_le_bytes(lane[8 * w..8 * w + 8].try_into().expect("8 bytes"))
}

/// The first value with a byte in `class` (see [`Class`]) that is not marked; `None` when all
/// `VALUES` values are marked.
fn first_unmarked(lane: &Lane, class: &[u64]) -> Option<u16> {
    class.iter().enumerate().find_map(|(w, &c)| {
        let free = !marks_word(lane, w) & c;
        (free != 0).then(|| (8 * w + free.trailing_zeros() as usize / 8) as u16)
    })
}

/// Appends the values below `below` with a byte in `class` that are not marked.
fn unmarked_below(lane: &Lane, class: &[u64], below: u16, out: &mut Vec<u16>) {
    let below = usize::from(below);
    for (w, &c) in class.iter().enumerate().take(below.div_ceil(8)) {
        let mut free = !marks_word(lane, w) & c;
        while free != 0 {
            let v = 8 * w + free.trailing_zeros() as usize / 8;
            if v >= below {
                return;
            }
            out.push(v as u16);
            free &= free - 1;
        }
    }
}

/// One byte per value (1 in the class, 0 outside), eight values to a word, for [`first_unmarked`].
type Class = Vec<u64>;

fn class_of(member: impl Fn(u16) -> bool) -> Class {
    (0..VALUES / 8)
        .map(|w| {
            u64::from_le_bytes(std::array::from_fn(|i| {
                u8::from(member((8 * w + i) as u16))
            }))
        })
        .collect()
}

/// A sparse space: the mask, and for the domain variant the parity of the sparse heaps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Space {
    pub mask: u16,
    /// `Some(s)`: heap `a` is sparse when its value's parity is the parity of `a + s`. `None`:
    /// when its value's parity is 0.
    pub domain: Option<u8>,
}

impl Space {
    fn parity(self, value: u16) -> u8 {
        ((value & self.mask).count_ones() & 1) as u8
    }

    fn is_sparse(self, heap: usize, value: u16) -> bool {
        let sparse_parity = self.domain.map_or(0, |s| (heap as u8 ^ s) & 1);
        self.parity(value) == sparse_parity
    }

    /// The parity of the values that the splits of `rest` with exactly one sparse part give.
    /// (In the domain variant the parities of the two parts add up to that of `rest`.)
    fn mixed(self, rest: usize) -> u8 {
        1 ^ (u8::from(self.domain.is_some()) & (rest & 1) as u8)
    }
}

/// The sparse space with the fewest sparse heaps among `values[1..]`, and that number. Domain
/// spaces are considered only when `domain` allows them (every split removes counts of one
/// parity).
///
/// The number of heaps whose value has parity 0 under `mask` is `(total + W[mask]) / 2`, where
/// `W` is the Walsh–Hadamard transform of the histogram of values, so every mask is weighed at
/// once.
fn best_space(values: &[u16], domain: bool) -> Option<(Space, usize)> {
    let top = values.iter().copied().max().unwrap_or(0);
    let size = (usize::from(top) + 1).next_power_of_two();
    // Histograms of the values of even and of odd heaps.
    let mut even = vec![0i64; size];
    let mut odd = vec![0i64; size];
    for (heap, &v) in values.iter().enumerate().skip(1) {
        let histogram = if heap % 2 == 0 { &mut even } else { &mut odd };
        histogram[usize::from(v)] += 1;
    }
    let (evens, odds) = (even.iter().sum::<i64>(), odd.iter().sum::<i64>());
    walsh_hadamard(&mut even);
    walsh_hadamard(&mut odd);
    let mut best: Option<(Space, usize)> = None;
    let mut consider = |space: Space, count: i64| {
        let count = count as usize;
        if best.is_none_or(|(_, fewest)| count < fewest) {
            best = Some((space, count));
        }
    };
    for mask in 1..size {
        let space = |domain| Space {
            mask: mask as u16,
            domain,
        };
        consider(space(None), (evens + odds + even[mask] + odd[mask]) / 2);
        if domain {
            // Even heaps with parity 0 and odd heaps with parity 1, or the other way round.
            let matching = (evens + even[mask]) / 2 + (odds - odd[mask]) / 2;
            consider(space(Some(0)), matching);
            consider(space(Some(1)), evens + odds - matching);
        }
    }
    best
}

fn walsh_hadamard(h: &mut [i64]) {
    let mut len = 1;
    while len < h.len() {
        for block in h.chunks_mut(2 * len) {
            let (low, high) = block.split_at_mut(len);
            for (x, y) in low.iter_mut().zip(high) {
                (*x, *y) = (*x + *y, *x - *y);
            }
        }
        len *= 2;
    }
}

/// The order in which the chunks `0..count` of splits (chunk `j` holds the splits that leave
/// `1 + j·CHUNK ..= (j + 1)·CHUNK` on one side) are scanned for missing values: alternately the
/// next chunk of the lower half in increasing order and the next chunk of the upper half in
/// bit-reversed order. The splits that leave a small heap give the rarest values most often (the
/// values of small heaps are the most varied); the bit-reversed ones are spread evenly over the
/// rest. The order depends only on `count`, so the chunks it starts with stay in the cache from
/// one heap to the next.
#[derive(Debug, Clone)]
struct ChunkOrder {
    /// The lower half is `0..half`, taken in increasing order; `low` is the next.
    half: usize,
    low: usize,
    /// The upper half is `half + reversed(i)` for `i` in `0..2^bits` with `reversed(i) < upper`;
    /// `rev` is the next `i`.
    upper: usize,
    bits: u32,
    rev: usize,
    ascending_next: bool,
}

impl ChunkOrder {
    fn new(count: usize) -> ChunkOrder {
        let half = count / 2;
        let upper = count - half;
        ChunkOrder {
            half,
            low: 0,
            upper,
            bits: usize::BITS - upper.saturating_sub(1).leading_zeros(),
            rev: 0,
            ascending_next: true,
        }
    }

    fn next_ascending(&mut self) -> Option<usize> {
        (self.low < self.half).then(|| {
            self.low += 1;
            self.low - 1
        })
    }

    fn next_reversed(&mut self) -> Option<usize> {
        while self.rev < 1 << self.bits {
            let i = self.rev;
            self.rev += 1;
            let reversed = if self.bits == 0 {
                0
            } else {
                i.reverse_bits() >> (usize::BITS - self.bits)
            };
            if reversed < self.upper {
                return Some(self.half + reversed);
            }
        }
        None
    }
}

impl Iterator for ChunkOrder {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let ascending = self.ascending_next;
        self.ascending_next = !ascending;
        if ascending {
            self.next_ascending().or_else(|| self.next_reversed())
        } else {
            self.next_reversed().or_else(|| self.next_ascending())
        }
    }
}

/// A split removal `k` as seen from a block: its splits of the block's heaps that lie below the
/// block are marked for every lane at once.
#[derive(Debug, Clone)]
struct BlockSplit {
    k: usize,
    /// `n0 - k` for the block's first heap `n0`: the lane `l` splits `top + l`.
    top: usize,
    /// Chunks `0..chunks` are scanned in [`ChunkOrder`]; they end at or below `top / 2`.
    chunks: usize,
    /// The order after the chunks marked for the whole block.
    rest_of_order: ChunkOrder,
    /// The chunks marked for the whole block (their splits that leave a heap below `LANES` are
    /// marked lane by lane).
    prefix: Vec<usize>,
    /// The sparse heaps `LANES..top` (marked for the whole block) are `sparse[far.clone()]`.
    far: std::ops::Range<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Exhaustive,
    Sparse(Space),
}

/// How the mode is chosen: by the expected cost, or (in tests of both modes) forced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Choice {
    Cheapest,
    #[cfg(test)]
    Exhaustive,
    #[cfg(test)]
    Sparse(Space),
}

/// A value reached the engine's limit: the rest is computed by the definition on 32-bit values.
#[derive(Debug)]
struct Overflow;

/// The moves of a code by kind: the removals `k` that may leave no heap, one heap, two heaps.
#[derive(Debug)]
struct Moves {
    remove_all: Vec<usize>,
    leave_one: Vec<usize>,
    splits: Vec<usize>,
}

impl Moves {
    fn new(code: &OctalCode) -> Moves {
        let with = |bit: u8| -> Vec<usize> {
            (1..)
                .zip(code.digits())
                .filter(|&(_, &d)| d & bit != 0)
                .map(|(k, _)| k)
                .collect()
        };
        Moves {
            remove_all: with(NO_HEAP),
            leave_one: with(ONE_HEAP),
            splits: with(TWO_HEAPS),
        }
    }

    /// Marks the options of heap `n` that leave no heap or one heap.
    fn mark_simple(&self, values: &[u16], lane: &mut Lane, n: usize) {
        if self.remove_all.contains(&n) {
            lane[0] = 1;
        }
        for &k in self.leave_one.iter().take_while(|&&k| k < n) {
            lane[usize::from(values[n - k])] = 1;
        }
    }
}

/// Marks in every lane `l` the split of `top + l` into `a` and `top + l - a`, for each `a` (with
/// its value) from `heaps`: the second parts of the lanes are the `LANES` values from `top - a`,
/// read side by side. Every `a` lies in `LANES..top`, so they are all below the block.
fn mark_below(
    lanes: &mut Lanes,
    values: &[u16],
    top: usize,
    heaps: impl Iterator<Item = (usize, u16)>,
) {
    // Through a plain reference, so that the box is not read again after every mark.
    let marks = &mut *lanes.0;
    for (a, value) in heaps {
        let window: &[u16; LANES] = values[top - a..][..LANES].try_into().expect("LANES values");
        for (l, &other) in window.iter().enumerate() {
            marks[l * STRIDE + usize::from(other ^ value)] = 1;
        }
    }
}

/// Marks the splits of `rest` that leave `a` in `heaps` on one side.
fn mark_splits(values: &[u16], lane: &mut Lane, rest: usize, heaps: impl Iterator<Item = usize>) {
    for a in heaps {
        lane[usize::from(values[a] ^ values[rest - a])] = 1;
    }
}

/// The heaps sparse under the current space, in increasing order, and their values.
#[derive(Debug, Default)]
struct SparseHeaps {
    heaps: Vec<usize>,
    values: Vec<u16>,
}

#[derive(Debug)]
struct Engine {
    moves: Moves,
    values: Vec<u16>,
    /// A power of two above every value so far: no mark is made at or above it.
    cap: usize,
    /// Values must stay below this: `VALUES`, or less in tests of the fallback.
    limit: usize,
    lanes: Lanes,
    choice: Choice,
    mode: Mode,
    sparse: SparseHeaps,
    /// `by_parity[p]`: the values of parity `p` under the mask (sparse mode).
    by_parity: [Class; 2],
    every_value: Class,
    need: Vec<u16>,
    /// Splits scanned lane by lane for missing values, and heaps computed in sparse mode, since
    /// the last choice of mode: the part of the cost of sparse mode that the number of sparse
    /// heaps does not tell.
    scanned: usize,
    sparse_heaps_computed: usize,
    scanned_per_heap: usize,
}

impl Engine {
    fn new(code: &OctalCode, choice: Choice, limit: usize) -> Engine {
        Engine {
            moves: Moves::new(code),
            values: vec![0],
            cap: 1,
            limit,
            lanes: Lanes::new(),
            choice,
            mode: Mode::Exhaustive,
            sparse: SparseHeaps::default(),
            by_parity: [Vec::new(), Vec::new()],
            every_value: class_of(|_| true),
            need: Vec::new(),
            scanned: 0,
            sparse_heaps_computed: 0,
            scanned_per_heap: 0,
        }
    }

    /// Whether a domain space is possible: every split removes counts of one parity.
    fn domain_allowed(&self) -> bool {
        self.moves.splits.windows(2).all(|w| (w[1] - w[0]) % 2 == 0)
    }

    /// Chooses the mode for the heaps from `n` (the next heap) to the next choice, at `2n`.
    fn choose(&mut self, n: usize) {
        if let Some(per_heap) = self.scanned.checked_div(self.sparse_heaps_computed) {
            self.scanned_per_heap = per_heap;
        }
        (self.scanned, self.sparse_heaps_computed) = (0, 0);
        let domain = self.domain_allowed();
        let splits = self.moves.splits.len();
        self.mode = match self.choice {
            #[cfg(test)]
            Choice::Exhaustive => Mode::Exhaustive,
            #[cfg(test)]
            Choice::Sparse(space) => {
                assert!(
                    space.domain.is_none() || domain,
                    "a domain space needs splits of one parity"
                );
                Mode::Sparse(space)
            }
            Choice::Cheapest if splits == 0 => Mode::Exhaustive,
            Choice::Cheapest => match best_space(&self.values, domain) {
                None => Mode::Exhaustive,
                Some((space, sparse)) => {
                    // Splits marked per heap until the next choice. Exhaustive: 3n/4 on average
                    // (heaps n..2n have n/2..n splits) for each split removal. Sparse: the
                    // sparse heaps and the block's chunks (all the splits, early on) for each
                    // split removal, and the scan lane by lane: as much as last time, and at
                    // least a scan of every split for each new sparse heap, which come as often
                    // as they did among the last n/2 heaps.
                    let per_split = 3 * n / 4;
                    let exhaustive = splits * per_split;
                    let chunks = (PREFIX_CHUNKS * CHUNK).min(per_split);
                    let recent = (n / 2..n)
                        .filter(|&a| space.is_sparse(a, self.values[a]))
                        .count();
                    let scans = self.scanned_per_heap.max(exhaustive * recent / (n / 2));
                    let sparse = splits * (sparse + chunks) + scans;
                    if sparse < exhaustive {
                        Mode::Sparse(space)
                    } else {
                        Mode::Exhaustive
                    }
                }
            },
        };
        self.sparse = SparseHeaps::default();
        if let Mode::Sparse(space) = self.mode {
            let values = &self.values;
            for a in (1..values.len()).filter(|&a| space.is_sparse(a, values[a])) {
                self.sparse.heaps.push(a);
                self.sparse.values.push(values[a]);
            }
            self.by_parity = [0, 1].map(|p| class_of(|v| space.parity(v) == p));
        }
    }

    /// Records `value` as the value of the next heap.
    fn push(&mut self, value: u16) -> Result<(), Overflow> {
        if usize::from(value) >= self.limit {
            return Err(Overflow);
        }
        let n = self.values.len();
        self.values.push(value);
        self.cap = self.cap.max((usize::from(value) + 1).next_power_of_two());
        if let Mode::Sparse(space) = self.mode
            && space.is_sparse(n, value)
        {
            self.sparse.heaps.push(n);
            self.sparse.values.push(value);
        }
        Ok(())
    }

    /// Computes the next heap by the definition, alone.
    fn single(&mut self) -> Result<(), Overflow> {
        let n = self.values.len();
        self.lanes.clear(self.cap);
        let lane = self.lanes.lane(0);
        self.moves.mark_simple(&self.values, lane, n);
        for &k in self.moves.splits.iter().take_while(|&&k| k + 2 <= n) {
            mark_splits(&self.values, lane, n - k, 1..=(n - k) / 2);
        }
        let value = first_unmarked(lane, &self.every_value).ok_or(Overflow)?;
        self.push(value)
    }

    /// How the split removal `k` is handled in the block of heaps from `n0`.
    fn plan(&self, n0: usize, k: usize) -> BlockSplit {
        let top = n0.saturating_sub(k);
        let chunks = match self.mode {
            Mode::Exhaustive => 0,
            Mode::Sparse(_) => top / 2 / CHUNK,
        };
        let mut order = ChunkOrder::new(chunks);
        let prefix = order.by_ref().take(PREFIX_CHUNKS).collect();
        let heaps = &self.sparse.heaps;
        let start = heaps.partition_point(|&a| a < LANES);
        let end = heaps.partition_point(|&a| a < top).max(start);
        BlockSplit {
            k,
            top,
            chunks,
            rest_of_order: order,
            prefix,
            far: start..end,
        }
    }

    /// Computes the heaps `n0..end` (at most `LANES` of them; `n0` is the next heap).
    fn block(&mut self, n0: usize, end: usize) -> Result<(), Overflow> {
        self.lanes.clear(self.cap);
        let plans: Vec<BlockSplit> = self
            .moves
            .splits
            .iter()
            .map(|&k| self.plan(n0, k))
            .collect();
        for plan in &plans {
            self.mark_block(plan);
        }
        for n in n0..end {
            let value = self.finish(n - n0, n, &plans)?;
            self.push(value)?;
        }
        Ok(())
    }

    /// Marks, for every lane, the splits of `plan` that lie below the block.
    fn mark_block(&mut self, plan: &BlockSplit) {
        let Engine {
            values,
            lanes,
            sparse,
            mode,
            ..
        } = self;
        let values = &values[..];
        let top = plan.top;
        match mode {
            Mode::Exhaustive => {
                let heaps = LANES..=top / 2;
                mark_below(lanes, values, top, heaps.map(|a| (a, values[a])));
            }
            Mode::Sparse(_) => {
                let far = plan.far.clone();
                let heaps = sparse.heaps[far.clone()].iter().zip(&sparse.values[far]);
                mark_below(lanes, values, top, heaps.map(|(&a, &v)| (a, v)));
                let prefix = plan
                    .prefix
                    .iter()
                    .flat_map(|&chunk| (1 + chunk * CHUNK).max(LANES)..=(chunk + 1) * CHUNK);
                mark_below(lanes, values, top, prefix.map(|a| (a, values[a])));
            }
        }
    }

    /// The value of heap `n`, in lane `l` of the block planned by `plans`.
    fn finish(&mut self, l: usize, n: usize, plans: &[BlockSplit]) -> Result<u16, Overflow> {
        let Engine {
            moves,
            values,
            lanes,
            mode,
            sparse,
            by_parity,
            every_value,
            need,
            scanned,
            sparse_heaps_computed,
            ..
        } = self;
        let values = &values[..];
        let lane = lanes.lane(l);
        moves.mark_simple(values, lane, n);
        let splits = plans.iter().filter(|plan| n >= plan.k + 2);
        let value = match *mode {
            Mode::Exhaustive => {
                for plan in splits {
                    let rest = n - plan.k;
                    // The block marked LANES..=top/2 when that is not empty.
                    let marked_to = (plan.top / 2).max(LANES - 1);
                    mark_splits(values, lane, rest, 1..LANES.min(rest / 2 + 1));
                    mark_splits(values, lane, rest, marked_to + 1..=rest / 2);
                }
                first_unmarked(lane, every_value).ok_or(Overflow)?
            }
            Mode::Sparse(space) => {
                *sparse_heaps_computed += 1;
                for plan in splits.clone() {
                    let rest = n - plan.k;
                    // The sparse heaps the block did not pair, with the heap that completes the
                    // split (some lie in the block: a sparse heap found in an earlier lane).
                    let near = sparse.heaps[..plan.far.start]
                        .iter()
                        .zip(&sparse.values[..plan.far.start])
                        .chain(
                            sparse.heaps[plan.far.end..]
                                .iter()
                                .zip(&sparse.values[plan.far.end..]),
                        );
                    for (&a, &value) in near.take_while(|&(&a, _)| a < rest) {
                        lane[usize::from(value ^ values[rest - a])] = 1;
                    }
                    for &chunk in &plan.prefix {
                        let low = 1 + chunk * CHUNK;
                        mark_splits(values, lane, rest, low..LANES.max(low));
                    }
                }
                // Splits with exactly one sparse part give parity π; all are marked.
                let pi = usize::from(space.mixed(n + plans.first().map_or(0, |p| p.k)));
                let common = first_unmarked(lane, &by_parity[pi]).ok_or(Overflow)?;
                need.clear();
                unmarked_below(lane, &by_parity[1 - pi], common, need);
                if !need.is_empty() {
                    *scanned += scan(values, lane, n, splits, need);
                }
                need.first().copied().unwrap_or(common)
            }
        };
        Ok(value)
    }
}

/// Scans the splits of heap `n` not marked yet until every value in `need` is marked, removing
/// them from `need` as they are found; what is left is not an option. Returns the number of
/// splits scanned.
fn scan<'a>(
    values: &[u16],
    lane: &mut Lane,
    n: usize,
    plans: impl Iterator<Item = &'a BlockSplit>,
    need: &mut Vec<u16>,
) -> usize {
    let mut scanned = 0;
    for plan in plans {
        let rest = n - plan.k;
        let mut order = plan.rest_of_order.clone();
        // Many values missing: mark every split scanned.
        while need.len() > NEEDLES {
            let Some(chunk) = order.next() else { break };
            let low = 1 + chunk * CHUNK;
            mark_chunk(values, lane, rest, low);
            scanned += CHUNK;
            need.retain(|&v| lane[usize::from(v)] == 0);
        }
        // A few missing: compare each split with them (word-parallel), and mark a chunk only when
        // one of them is in it.
        let mut needles = needles_of(need);
        while !need.is_empty() {
            let Some(chunk) = order.next() else { break };
            let low = 1 + chunk * CHUNK;
            scanned += CHUNK;
            if chunk_gives(values, rest, low, &needles) {
                mark_chunk(values, lane, rest, low);
                need.retain(|&v| lane[usize::from(v)] == 0);
                needles = needles_of(need);
            }
        }
        if need.is_empty() {
            break;
        }
        // The splits beyond the chunks.
        let from = plan.chunks * CHUNK + 1;
        mark_splits(values, lane, rest, from..=rest / 2);
        scanned += (rest / 2 + 1).saturating_sub(from);
        need.retain(|&v| lane[usize::from(v)] == 0);
    }
    scanned
}

/// At most [`NEEDLES`] values, repeated to fill the array (any array when `need` is empty).
fn needles_of(need: &[u16]) -> [u16; NEEDLES] {
    std::array::from_fn(|i| need.get(i).or(need.last()).copied().unwrap_or(0))
}

/// Whether a split of `rest` that leaves `low..low + CHUNK` on one side gives one of `needles`.
fn chunk_gives(values: &[u16], rest: usize, low: usize, needles: &[u16; NEEDLES]) -> bool {
    let left: &[u16; CHUNK] = values[low..][..CHUNK].try_into().expect("CHUNK values");
    let right: &[u16; CHUNK] = values[rest + 1 - low - CHUNK..][..CHUNK]
        .try_into()
        .expect("CHUNK values");
    let mut found = 0u16;
    for (&x, &y) in left.iter().zip(right.iter().rev()) {
        let v = x ^ y;
        found |= needles
            .iter()
            .fold(0, |hit, &needle| hit | u16::from(v == needle));
    }
    found != 0
}

/// Marks the splits of `rest` that leave `low..low + CHUNK` on one side.
fn mark_chunk(values: &[u16], lane: &mut Lane, rest: usize, low: usize) {
    let left = &values[low..low + CHUNK];
    let right = &values[rest + 1 - low - CHUNK..=rest - low];
    for (&x, &y) in left.iter().zip(right.iter().rev()) {
        lane[usize::from(x ^ y)] = 1;
    }
}

/// See [`super::fast_values`]; `choice` forces a mode and `limit` lowers the bound on values
/// (both for tests).
pub(super) fn compute(
    code: &OctalCode,
    upto: usize,
    mut progress: impl FnMut(usize) -> ControlFlow<()>,
    choice: Choice,
    limit: usize,
) -> (Vec<u32>, Ending) {
    let mut engine = Engine::new(code, choice, limit);
    let widen = |values: &[u16]| values.iter().map(|&v| u32::from(v)).collect::<Vec<u32>>();
    let mut checkpoint = FIRST_BLOCK;
    let mut overflow = Ok(());
    let mut work = 0;
    while overflow.is_ok() && engine.values.len() <= upto {
        let n = engine.values.len();
        if report_due(n, &mut work) && progress(n).is_break() {
            return (widen(&engine.values), Ending::Stopped);
        }
        if n < FIRST_BLOCK {
            work += split_work(code, n);
            overflow = engine.single();
            continue;
        }
        if n == checkpoint {
            checkpoint *= 2;
            if let Some(found) = find_period_in(code, &engine.values) {
                let values = &mut engine.values;
                for m in n..=upto {
                    values.push(values[found.reduce(m as u64) as usize]);
                }
                break;
            }
            engine.choose(n);
        }
        let end = (n + LANES).min(upto + 1);
        work += (n..end).map(|m| split_work(code, m)).sum::<u64>();
        overflow = engine.block(n, end);
    }
    let mut values = widen(&engine.values);
    let ending = match overflow {
        Ok(()) => Ending::Complete,
        // A value too large for 16 bits: the rest by the definition.
        Err(Overflow) => super::extend_naive(code, &mut values, upto, progress),
    };
    (values, ending)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::octal::naive_values;
    use proptest::prelude::*;

    fn code(text: &str) -> OctalCode {
        text.parse().unwrap()
    }

    fn run(code: &OctalCode, upto: usize, choice: Choice, limit: usize) -> Vec<u32> {
        let (values, ending) = compute(code, upto, |_| ControlFlow::Continue(()), choice, limit);
        assert_eq!(ending, Ending::Complete);
        values
    }

    #[test]
    fn chunks_alternate_small_and_bit_reversed() {
        // By hand for 8 chunks: the lower half 0, 1, 2, 3 in order, interleaved with the upper
        // half 4 + reversed(0, 1, 2, 3 in two bits) = 4 + (0, 2, 1, 3).
        assert_eq!(
            ChunkOrder::new(8).collect::<Vec<_>>(),
            vec![0, 4, 1, 6, 2, 5, 3, 7]
        );
        for count in 0..300 {
            let mut order: Vec<usize> = ChunkOrder::new(count).collect();
            if count > 0 {
                assert_eq!(order[0], 0);
            }
            order.sort_unstable();
            assert_eq!(order, (0..count).collect::<Vec<_>>(), "{count} chunks");
        }
    }

    #[test]
    fn the_best_space_is_the_sparsest_by_brute_force() {
        let sequences: [&[u16]; 3] = [
            &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4],
            &[
                0, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0, 3, 4, 2, 1, 3, 2, 1, 0, 2, 1, 4, 5,
            ],
            &[0, 7, 2, 7, 0, 1, 6, 5, 6, 9, 4, 9, 6, 9],
        ];
        for values in sequences {
            let count = |space: Space| {
                (1..values.len())
                    .filter(|&a| space.is_sparse(a, values[a]))
                    .count()
            };
            // Masks with a bit above the largest value are the same as without it.
            let size = (values.iter().max().unwrap() + 1).next_power_of_two();
            for domain in [false, true] {
                let mut spaces = vec![None];
                if domain {
                    spaces.extend([Some(0), Some(1)]);
                }
                let fewest = (1..size)
                    .flat_map(|mask| spaces.iter().map(move |&domain| Space { mask, domain }))
                    .map(count)
                    .min();
                let (space, found) = best_space(values, domain).unwrap();
                assert_eq!(Some(found), fewest, "{values:?}");
                assert_eq!(count(space), found, "{values:?}");
                assert!(domain || space.domain.is_none());
            }
        }
        // The third sequence: the odd heaps have odd values, the even ones even values, so
        // under the mask 1 no heap's parity differs from its own.
        let (space, found) = best_space(sequences[2], true).unwrap();
        assert_eq!(
            (space, found),
            (
                Space {
                    mask: 1,
                    domain: Some(1)
                },
                0
            )
        );
        assert_eq!(best_space(&[0, 0, 0], true), None);
    }

    #[test]
    fn domain_spaces_give_the_values_of_the_definition() {
        // 0.104 and 0.205 split only after removing 3 and 2 (one parity each); their sparse
        // heaps in the domain variant are few. 0.007 splits after 3 too.
        for text in ["0.104", "0.205", "0.007"] {
            let c = code(text);
            let naive = naive_values(&c, 3000);
            for mask in [1, 3, 0x1f] {
                for s in [0, 1] {
                    let space = Space {
                        mask,
                        domain: Some(s),
                    };
                    let fast = run(&c, 3000, Choice::Sparse(space), VALUES);
                    assert_eq!(fast, naive, "{text} {space:?}");
                }
            }
        }
    }

    #[test]
    fn values_beyond_the_limit_continue_by_the_definition() {
        for text in ["0.6", "0.77", "0.137"] {
            let c = code(text);
            assert_eq!(
                run(&c, 2000, Choice::Cheapest, 5),
                naive_values(&c, 2000),
                "{text}"
            );
        }
    }

    fn any_code() -> impl Strategy<Value = OctalCode> {
        prop::collection::vec(0u8..8, 1..5).prop_map(|digits| OctalCode { digits })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn both_modes_match_the_definition(
            c in any_code(),
            upto in 0usize..2500,
            mask in 1u16..64,
            domain in prop::option::of(0u8..2),
        ) {
            let naive = naive_values(&c, upto);
            prop_assert_eq!(run(&c, upto, Choice::Exhaustive, VALUES), naive.clone());
            let engine = Engine::new(&c, Choice::Cheapest, VALUES);
            let domain = domain.filter(|_| engine.domain_allowed());
            let space = Space { mask, domain };
            prop_assert_eq!(run(&c, upto, Choice::Sparse(space), VALUES), naive);
        }
    }
}
