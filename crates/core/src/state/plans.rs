//! The keyed plans of one session, in the order they were first shown.

use super::{Key, PlanView};
use std::fmt;

/// Maps in the order their keys were first shown, hashed with foldhash (seeded
/// per process, as the validator's maps are): SipHash was 3% of the
/// instructions on a trace of many sessions. The order does not depend on the
/// hasher.
type IndexMap<K, V> = indexmap::IndexMap<K, V, foldhash::fast::RandomState>;

/// A session's keyed plans by id, in the order they were first shown: an
/// ordered map, compared as one (the same ids showing the same plans,
/// whatever their order).
///
/// A few plans are kept in a list and found by comparing ids: a session
/// shows one or two plans, and with thousands of sessions a hashed map's
/// table, then its entry, were two more waits on memory for every plan
/// update, where the list is one (bench/README.md). Past [`Plans::FEW`] the
/// plans move to a hashed map, so a session of many plans costs no more a
/// lookup than it did.
#[derive(Clone, Default)]
pub struct Plans(Repr);

#[derive(Clone)]
enum Repr {
    Few(Vec<(Key, PlanView)>),
    /// Boxed: every session's slot in the client state holds its `Plans`,
    /// and a map in place made each slot 128 bytes where 88 do (4% fewer
    /// read misses on a trace of 10 000 sessions; bench/README.md).
    Many(Box<IndexMap<Key, PlanView>>),
}

// As small as the list: the box goes where the list's capacity cannot be.
const _: () = assert!(std::mem::size_of::<Plans>() == std::mem::size_of::<Vec<(Key, PlanView)>>());

impl Default for Repr {
    fn default() -> Self {
        Repr::Few(Vec::new())
    }
}

impl Plans {
    /// Plans kept in a list; one more moves them to a hashed map.
    pub const FEW: usize = 8;

    /// The number of plans.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Few(plans) => plans.len(),
            Repr::Many(plans) => plans.len(),
        }
    }

    /// Whether there is no plan.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The position of plan `id` in the order shown.
    pub fn get_index_of(&self, id: &str) -> Option<usize> {
        match &self.0 {
            Repr::Few(plans) => plans.iter().position(|(key, _)| &**key == id),
            Repr::Many(plans) => plans.get_index_of(id),
        }
    }

    /// The plan at `index` in the order shown, with its id.
    pub fn get_index(&self, index: usize) -> Option<(&Key, &PlanView)> {
        match &self.0 {
            Repr::Few(plans) => plans.get(index).map(|(key, view)| (key, view)),
            Repr::Many(plans) => plans.get_index(index),
        }
    }

    /// Plan `id`, if shown.
    pub fn get(&self, id: &str) -> Option<&PlanView> {
        let index = self.get_index_of(id)?;
        self.get_index(index).map(|(_, view)| view)
    }

    pub(crate) fn get_mut(&mut self, id: &str) -> Option<&mut PlanView> {
        match &mut self.0 {
            Repr::Few(plans) => plans
                .iter_mut()
                .find(|(key, _)| &**key == id)
                .map(|(_, view)| view),
            Repr::Many(plans) => plans.get_mut(id),
        }
    }

    /// Whether plan `id` is shown.
    pub fn contains_key(&self, id: &str) -> bool {
        self.get_index_of(id).is_some()
    }

    /// Show `view` as plan `id`: in its place if the id is shown, last if
    /// not. Returns the plan it replaces.
    pub fn insert(&mut self, id: Key, view: PlanView) -> Option<PlanView> {
        match &mut self.0 {
            Repr::Few(plans) => {
                if let Some((_, shown)) = plans.iter_mut().find(|(key, _)| *key == id) {
                    return Some(std::mem::replace(shown, view));
                }
                if plans.len() < Self::FEW {
                    super::push_growing_exactly(plans, (id, view));
                    return None;
                }
                let mut many = IndexMap::with_capacity_and_hasher(
                    2 * Self::FEW,
                    foldhash::fast::RandomState::default(),
                );
                many.extend(plans.drain(..));
                many.insert(id, view);
                self.0 = Repr::Many(Box::new(many));
                None
            }
            Repr::Many(plans) => plans.insert(id, view),
        }
    }

    /// Stop showing plan `id`; the plans after it keep their order.
    pub fn shift_remove(&mut self, id: &str) -> Option<PlanView> {
        match &mut self.0 {
            Repr::Few(plans) => {
                let index = plans.iter().position(|(key, _)| &**key == id)?;
                Some(plans.remove(index).1)
            }
            Repr::Many(plans) => plans.shift_remove(id),
        }
    }

    /// The plans with their ids, in the order shown.
    pub fn iter(&self) -> Iter<'_> {
        Iter(match &self.0 {
            Repr::Few(plans) => IterRepr::Few(plans.iter()),
            Repr::Many(plans) => IterRepr::Many(plans.iter()),
        })
    }

    /// The plan ids, in the order shown.
    pub fn keys(&self) -> impl Iterator<Item = &Key> {
        self.iter().map(|(key, _)| key)
    }

    /// The plans, in the order shown.
    pub fn values(&self) -> impl Iterator<Item = &PlanView> {
        self.iter().map(|(_, view)| view)
    }
}

/// The plans of a [`Plans`] with their ids, in the order shown.
pub struct Iter<'a>(IterRepr<'a>);

enum IterRepr<'a> {
    Few(std::slice::Iter<'a, (Key, PlanView)>),
    Many(indexmap::map::Iter<'a, Key, PlanView>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Key, &'a PlanView);

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            IterRepr::Few(plans) => plans.next().map(|(key, view)| (key, view)),
            IterRepr::Many(plans) => plans.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            IterRepr::Few(plans) => plans.size_hint(),
            IterRepr::Many(plans) => plans.size_hint(),
        }
    }
}

impl<'a> IntoIterator for &'a Plans {
    type Item = (&'a Key, &'a PlanView);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// As a map: the same ids showing the same plans, in any order (as the
/// `IndexMap` these plans were kept in compared).
impl PartialEq for Plans {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .all(|(id, view)| other.get(id).is_some_and(|shown| shown == view))
    }
}

/// As a map, in the order shown.
impl fmt::Debug for Plans {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::messages::PlanContent;

    fn view(text: &str) -> PlanView {
        PlanView {
            content: PlanContent::Markdown {
                content: text.into(),
                path: None,
            },
        }
    }

    /// Whatever the number of plans, they behave as the ordered map they
    /// were kept in: the same answers, in the same order, through the move
    /// from the list to the hashed map.
    #[test]
    fn plans_behave_as_an_ordered_map() {
        let mut plans = Plans::default();
        let mut model: IndexMap<Key, PlanView> = IndexMap::default();
        let mut rng = fastrand::Rng::with_seed(11);
        let mut went_many = false;
        for step in 0..20_000 {
            // Ids from a range wide enough to pass FEW and come back under it.
            let id = format!("plan-{}", rng.usize(..3 * Plans::FEW));
            let text = format!("{step}");
            if rng.u8(..5) < 2 {
                assert_eq!(plans.shift_remove(&id), model.shift_remove(&*id), "{step}");
            } else {
                assert_eq!(
                    plans.insert(Key::new(&id), view(&text)),
                    model.insert(Key::new(&id), view(&text)),
                    "{step}"
                );
            }
            went_many |= matches!(plans.0, Repr::Many(_));
            assert_eq!(plans.len(), model.len());
            assert_eq!(plans.is_empty(), model.is_empty());
            assert!(plans.iter().eq(model.iter()), "{step}");
            assert_eq!(plans.iter().size_hint(), (model.len(), Some(model.len())));
            let probe = format!("plan-{}", rng.usize(..3 * Plans::FEW));
            assert_eq!(plans.get_index_of(&probe), model.get_index_of(&*probe));
            assert_eq!(plans.get(&probe), model.get(&*probe));
            assert_eq!(plans.contains_key(&probe), model.contains_key(&*probe));
            if let Some(index) = model.get_index_of(&*probe) {
                assert_eq!(plans.get_index(index), model.get_index(index));
            }
            if let Some(shown) = plans.get_mut(&probe) {
                *shown = view("changed");
                if let Some(modelled) = model.get_mut(&*probe) {
                    *modelled = view("changed");
                }
            }
            assert!(plans.iter().eq(model.iter()), "{step}");
        }
        assert!(went_many, "the test never passed {} plans", Plans::FEW);
    }

    /// Compared as maps: the order the plans were shown in does not count,
    /// the plans do, whether kept in a list or a hashed map.
    #[test]
    fn plans_compare_as_maps() {
        for count in [2, Plans::FEW + 2] {
            let ids: Vec<String> = (0..count).map(|n| format!("p{n}")).collect();
            let mut forward = Plans::default();
            let mut backward = Plans::default();
            for id in &ids {
                forward.insert(Key::new(id), view(id));
            }
            for id in ids.iter().rev() {
                backward.insert(Key::new(id), view(id));
            }
            assert_eq!(forward, backward, "{count} plans");
            backward.insert(Key::new("p0"), view("other"));
            assert_ne!(forward, backward, "{count} plans");
            backward.shift_remove("p0");
            assert_ne!(forward, backward, "{count} plans");
            assert_eq!(
                format!("{forward:?}").matches("p1").count(),
                2,
                "{forward:?}"
            );
        }
    }
}
