//! Request/response pairing, per direction.
//!
//! Each side numbers its own requests, so the same id can be in flight in
//! both directions at once. Memory is bounded: outstanding requests up to a
//! limit, and a short ring of recently answered ids to tell a duplicate
//! response from one that answers nothing.

use super::{methods, Direction, Id};
use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};

/// Recently answered ids remembered per direction, to name duplicates.
const ANSWERED_MEMORY: usize = 256;
/// Requests whose direction could not be placed, remembered for their response.
const UNPLACED_MEMORY: usize = 256;

/// A request awaiting its response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    /// ACP's own method names are not copied (most requests of a trace).
    pub method: Cow<'static, str>,
    /// Other methods the same request may carry: readings of a request
    /// that repeats `method` with different values.
    pub also: Vec<String>,
    /// The line the request was read on.
    pub line: u64,
    /// Its place in the line's batch (the element's index + 1), 0 when the
    /// line is one message: a batch puts several requests on one line.
    pub element: u32,
    seq: u64,
}

impl Pending {
    /// Where the request was read: its line and its place in the batch.
    pub fn at(&self) -> (u64, u32) {
        (self.line, self.element)
    }
}

/// What became of a request handed to [`Correlator::request`].
#[derive(Debug, PartialEq, Eq)]
pub enum RequestOutcome {
    /// The request is in flight until its response comes.
    Tracked,
    /// The sender already has a request with this id in flight.
    Reused {
        /// The line of the request still in flight with that id.
        previous_line: u64,
    },
    /// Too many requests in flight; this one is not tracked.
    Overflow,
}

/// What a response answers, from [`Correlator::response`]: the request it pairs with, or why it
/// pairs with none (each a different finding).
#[derive(Debug, PartialEq, Eq)]
pub enum ResponseOutcome {
    /// Answers `request`; the response travels in `direction`.
    Answers {
        /// The direction the response travels (the opposite of the request's).
        direction: Direction,
        /// The request answered; it is no longer in flight.
        request: Pending,
    },
    /// A bare response whose id is in flight in both directions: the older
    /// request was taken, but it may answer `alternative` instead; or the
    /// later response of such a pair (`repeat`), which takes the remaining
    /// request and may equally answer the one taken first.
    Ambiguous {
        /// The direction the response is taken to travel.
        direction: Direction,
        /// The request taken as answered.
        request: Pending,
        /// The request of the other direction it may answer instead.
        alternative: Pending,
        /// Whether this is the second response of the ambiguous pair.
        repeat: bool,
    },
    /// Answers a request whose direction was never placed.
    AnswersUnplaced {
        /// The method of the request answered.
        method: String,
    },
    /// Answers `request`, or repeats an answer to it: an earlier response
    /// read more than one way (a repeated `id`) may have answered it (see
    /// [`Correlator::maybe_answered`]).
    MaybeAnswers {
        /// The request that may have been answered before.
        request: Pending,
    },
    /// The id was answered already.
    Duplicate {
        /// The direction the duplicate response travels.
        direction: Direction,
    },
    /// A bare response whose id was answered already by a bare response:
    /// either `direction`'s sender answered twice, or the other party sent
    /// one of the two to no request of `direction`'s sender. No reading
    /// judges the same party, so neither is judged.
    DuplicateOrStray {
        /// The direction the responses are taken to travel.
        direction: Direction,
    },
    /// No request with this id is in flight.
    Unknown {
        /// The direction the response travels as its envelope says; `None` for a bare
        /// response, which nothing places.
        direction: Option<Direction>,
    },
    /// Requests were dropped at the outstanding limit, so an unmatched
    /// response proves nothing.
    Untracked,
    /// `"id": null`: the answer to a request the peer could not read.
    NullId,
}

/// Pairs responses with requests, separately for each direction a request
/// travels (each party numbers its own requests, so one id may be in flight
/// both ways at once). Memory is bounded: at most `max_outstanding` requests
/// in flight are tracked (past that, or after a lost message, a response
/// that pairs with none is [`ResponseOutcome::Untracked`], not unknown), and
/// the rings of answered, unplaced and ambiguous ids keep only the latest.
#[derive(Debug)]
pub struct Correlator {
    /// Indexed by the direction the *request* travelled.
    outstanding: [foldhash::HashMap<Id, Pending>; 2],
    answered: [VecDeque<Id>; 2],
    unplaced: VecDeque<(Id, String)>,
    /// Ids whose first bare response was ambiguous, with the request it was
    /// paired with (the second response of the pair is as ambiguous).
    ambiguous: VecDeque<(Id, Pending)>,
    /// Requests that one reading of a response answered and another did
    /// not (a repeated `id`), by id: their next response is no duplicate.
    maybe_answered: VecDeque<(Id, Pending)>,
    overflowed: bool,
    max_outstanding: usize,
    seq: u64,
}

impl Correlator {
    /// A correlator that tracks at most `max_outstanding` requests in flight
    /// (the [`crate::Limits`] bound); a request past it is
    /// [`RequestOutcome::Overflow`].
    pub fn new(max_outstanding: usize) -> Self {
        Correlator {
            outstanding: [HashMap::default(), HashMap::default()],
            answered: [VecDeque::new(), VecDeque::new()],
            unplaced: VecDeque::new(),
            ambiguous: VecDeque::new(),
            maybe_answered: VecDeque::new(),
            overflowed: false,
            max_outstanding,
            seq: 0,
        }
    }

    /// A message went unread (at a checker limit): it may have been a
    /// request, so an answer that pairs with none proves nothing, as past
    /// the outstanding limit.
    pub fn lose_a_message(&mut self) {
        self.overflowed = true;
    }

    /// Record a request sent in `direction`, read on `line` (as `element`
    /// of its batch, see [`Pending::element`]).
    pub fn request(
        &mut self,
        direction: Direction,
        id: Id,
        method: &str,
        line: u64,
        element: u32,
    ) -> RequestOutcome {
        self.seq += 1;
        let pending = Pending {
            method: methods::known(method)
                .map_or_else(|| Cow::Owned(method.to_owned()), Cow::Borrowed),
            also: Vec::new(),
            line,
            element,
            seq: self.seq,
        };
        let table = &mut self.outstanding[direction.index()];
        if let Some(previous) = table.get_mut(&id) {
            if previous.line == line && previous.element == element {
                // Another reading of the same request, not a second request.
                if previous.method != method && !previous.also.iter().any(|m| m == method) {
                    previous.also.push(method.to_owned());
                }
                return RequestOutcome::Tracked;
            }
            let previous_line = previous.line;
            *previous = pending;
            return RequestOutcome::Reused { previous_line };
        }
        if table.len() >= self.max_outstanding {
            self.overflowed = true;
            return RequestOutcome::Overflow;
        }
        table.insert(id, pending);
        RequestOutcome::Tracked
    }

    /// Remember a request whose direction could not be inferred.
    pub fn unplaced_request(&mut self, id: Id, method: &str) {
        if self.unplaced.len() >= UNPLACED_MEMORY {
            self.unplaced.pop_front();
        }
        self.unplaced.push_back((id, method.to_owned()));
    }

    /// Pair a response with its request. `direction` is the response's
    /// direction when the trace says it (envelopes), `None` for bare lines.
    pub fn response(&mut self, direction: Option<Direction>, id: &Id) -> ResponseOutcome {
        match direction {
            Some(direction) => {
                // A request may carry `"id": null` (allowed, discouraged):
                // a null-id response answers it when one is in flight.
                if let Some(request) = self.take(direction.opposite(), id) {
                    return ResponseOutcome::Answers { direction, request };
                }
                if id.is_null() {
                    return ResponseOutcome::NullId;
                }
                if let Some(method) = self.take_unplaced(id) {
                    return ResponseOutcome::AnswersUnplaced { method };
                }
                if let Some(request) = self.take_maybe_answered(id) {
                    return ResponseOutcome::MaybeAnswers { request };
                }
                if self.answered[direction.opposite().index()].contains(id) {
                    // A request past the limit may have reused the id.
                    if self.overflowed {
                        return ResponseOutcome::Untracked;
                    }
                    return ResponseOutcome::Duplicate { direction };
                }
                self.unmatched(Some(direction))
            }
            None => {
                let from_client = self.outstanding[Direction::ClientToAgent.index()].get(id);
                let from_agent = self.outstanding[Direction::AgentToClient.index()].get(id);
                match (from_client, from_agent) {
                    (Some(c), Some(a)) => {
                        let (request_direction, alternative) = if c.seq <= a.seq {
                            (Direction::ClientToAgent, a.clone())
                        } else {
                            (Direction::AgentToClient, c.clone())
                        };
                        match self.take(request_direction, id) {
                            Some(request) => {
                                if self.ambiguous.len() >= ANSWERED_MEMORY {
                                    self.ambiguous.pop_front();
                                }
                                self.ambiguous.push_back((id.clone(), request.clone()));
                                ResponseOutcome::Ambiguous {
                                    direction: request_direction.opposite(),
                                    request,
                                    alternative,
                                    repeat: false,
                                }
                            }
                            None => self.unmatched(None),
                        }
                    }
                    (Some(_), None) => self.answer(Direction::ClientToAgent, id),
                    (None, Some(_)) => self.answer(Direction::AgentToClient, id),
                    (None, None) => {
                        if id.is_null() {
                            return ResponseOutcome::NullId;
                        }
                        if let Some(method) = self.take_unplaced(id) {
                            return ResponseOutcome::AnswersUnplaced { method };
                        }
                        if let Some(request) = self.take_maybe_answered(id) {
                            return ResponseOutcome::MaybeAnswers { request };
                        }
                        for request_direction in
                            [Direction::ClientToAgent, Direction::AgentToClient]
                        {
                            if self.answered[request_direction.index()].contains(id) {
                                return ResponseOutcome::DuplicateOrStray {
                                    direction: request_direction.opposite(),
                                };
                            }
                        }
                        self.unmatched(None)
                    }
                }
            }
        }
    }

    /// Whether a bare response with `id` is read as ambiguous whatever it
    /// carries: the id is in flight in both directions, or its first bare
    /// response was (the second is paired by what is left, not placed anew).
    pub fn is_ambiguous(&self, id: &Id) -> bool {
        let in_flight = |direction: Direction| self.outstanding[direction.index()].contains_key(id);
        (in_flight(Direction::ClientToAgent) && in_flight(Direction::AgentToClient))
            || self.ambiguous.iter().any(|(known, _)| known == id)
    }

    /// `request` (of `id`), taken by one reading of a response that other
    /// readings give another id: not answered for certain, so its next
    /// response is [`ResponseOutcome::MaybeAnswers`], not a duplicate.
    pub fn maybe_answered(&mut self, id: Id, request: Pending) {
        if self.maybe_answered.len() >= ANSWERED_MEMORY {
            self.maybe_answered.pop_front();
        }
        self.maybe_answered.push_back((id, request));
    }

    /// Requests in flight that were sent in `direction`.
    pub fn outstanding(&self, direction: Direction) -> impl Iterator<Item = (&Id, &Pending)> {
        self.outstanding[direction.index()].iter()
    }

    /// How many requests sent in `direction` are in flight.
    pub fn outstanding_count(&self, direction: Direction) -> usize {
        self.outstanding[direction.index()].len()
    }

    /// Ids remembered beyond the requests in flight (answered and unplaced
    /// requests), for memory checks. Never more than a small constant.
    pub fn remembered_count(&self) -> usize {
        self.answered.iter().map(VecDeque::len).sum::<usize>()
            + self.unplaced.len()
            + self.ambiguous.len()
            + self.maybe_answered.len()
    }

    fn answer(&mut self, request_direction: Direction, id: &Id) -> ResponseOutcome {
        match self.take(request_direction, id) {
            Some(request) => {
                if let Some(index) = self.ambiguous.iter().position(|(known, _)| known == id) {
                    if let Some((_, alternative)) = self.ambiguous.remove(index) {
                        return ResponseOutcome::Ambiguous {
                            direction: request_direction.opposite(),
                            request,
                            alternative,
                            repeat: true,
                        };
                    }
                }
                ResponseOutcome::Answers {
                    direction: request_direction.opposite(),
                    request,
                }
            }
            None => self.unmatched(None),
        }
    }

    fn unmatched(&self, direction: Option<Direction>) -> ResponseOutcome {
        if self.overflowed {
            ResponseOutcome::Untracked
        } else {
            ResponseOutcome::Unknown { direction }
        }
    }

    fn take(&mut self, request_direction: Direction, id: &Id) -> Option<Pending> {
        // The request's own id goes to the ring: no copy.
        let (id, pending) = self.outstanding[request_direction.index()].remove_entry(id)?;
        let ring = &mut self.answered[request_direction.index()];
        if ring.len() >= ANSWERED_MEMORY {
            ring.pop_front();
        }
        ring.push_back(id);
        Some(pending)
    }

    fn take_maybe_answered(&mut self, id: &Id) -> Option<Pending> {
        let index = self
            .maybe_answered
            .iter()
            .position(|(known, _)| known == id)?;
        self.maybe_answered
            .remove(index)
            .map(|(_, request)| request)
    }

    fn take_unplaced(&mut self, id: &Id) -> Option<String> {
        let index = self.unplaced.iter().position(|(known, _)| known == id)?;
        self.unplaced.remove(index).map(|(_, method)| method)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u32) -> Id {
        Id(n.to_string().into())
    }

    /// A request that one reading of a response answered (a repeated `id`)
    /// is not answered for certain: its next response is no duplicate.
    #[test]
    fn a_request_maybe_answered_takes_its_next_response() {
        for direction in [Some(Direction::AgentToClient), None] {
            let mut c = Correlator::new(10);
            c.request(Direction::ClientToAgent, id(3), "session/prompt", 1, 0);
            let ResponseOutcome::Answers { request, .. } = c.response(direction, &id(3)) else {
                panic!("the prompt is in flight");
            };
            c.maybe_answered(id(3), request);
            assert!(matches!(
                c.response(direction, &id(3)),
                ResponseOutcome::MaybeAnswers { request } if request.method == "session/prompt"
            ));
            // Once: a third response is a duplicate again.
            assert!(!matches!(
                c.response(direction, &id(3)),
                ResponseOutcome::MaybeAnswers { .. }
            ));
        }
    }

    #[test]
    fn same_id_in_both_directions_with_envelopes() {
        let mut c = Correlator::new(10);
        assert_eq!(
            c.request(Direction::ClientToAgent, id(1), "session/prompt", 1, 0),
            RequestOutcome::Tracked
        );
        assert_eq!(
            c.request(
                Direction::AgentToClient,
                id(1),
                "session/request_permission",
                2,
                0
            ),
            RequestOutcome::Tracked
        );
        match c.response(Some(Direction::ClientToAgent), &id(1)) {
            ResponseOutcome::Answers { direction, request } => {
                assert_eq!(direction, Direction::ClientToAgent);
                assert_eq!(request.method, "session/request_permission");
            }
            other => panic!("{other:?}"),
        }
        match c.response(Some(Direction::AgentToClient), &id(1)) {
            ResponseOutcome::Answers { request, .. } => {
                assert_eq!(request.method, "session/prompt")
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            c.response(Some(Direction::AgentToClient), &id(1)),
            ResponseOutcome::Duplicate {
                direction: Direction::AgentToClient
            }
        );
    }

    #[test]
    fn bare_responses_are_placed_or_flagged() {
        let mut c = Correlator::new(10);
        c.request(Direction::ClientToAgent, id(1), "initialize", 1, 0);
        assert!(matches!(
            c.response(None, &id(1)),
            ResponseOutcome::Answers {
                direction: Direction::AgentToClient,
                ..
            }
        ));
        c.request(Direction::ClientToAgent, id(2), "session/prompt", 3, 0);
        c.request(Direction::AgentToClient, id(2), "fs/read_text_file", 4, 0);
        assert!(matches!(
            c.response(None, &id(2)),
            ResponseOutcome::Ambiguous {
                direction: Direction::AgentToClient,
                ..
            }
        ));
        assert_eq!(
            c.response(None, &id(9)),
            ResponseOutcome::Unknown { direction: None }
        );
    }

    #[test]
    fn reuse_and_overflow() {
        let mut c = Correlator::new(1);
        c.request(Direction::ClientToAgent, id(1), "a", 1, 0);
        assert_eq!(
            c.request(Direction::ClientToAgent, id(1), "b", 2, 0),
            RequestOutcome::Reused { previous_line: 1 }
        );
        assert_eq!(
            c.request(Direction::ClientToAgent, id(2), "c", 3, 0),
            RequestOutcome::Overflow
        );
        assert_eq!(c.response(None, &id(2)), ResponseOutcome::Untracked);
    }

    /// On one line, the same request read twice (a repeated member) is one
    /// request; two elements of a batch are two, so a repeated id is reused.
    #[test]
    fn readings_and_batch_elements_on_one_line() {
        let mut c = Correlator::new(10);
        c.request(Direction::ClientToAgent, id(1), "a", 4, 0);
        assert_eq!(
            c.request(Direction::ClientToAgent, id(1), "b", 4, 0),
            RequestOutcome::Tracked
        );
        c.request(Direction::ClientToAgent, id(2), "a", 5, 1);
        assert_eq!(
            c.request(Direction::ClientToAgent, id(2), "a", 5, 2),
            RequestOutcome::Reused { previous_line: 5 }
        );
    }

    #[test]
    fn answered_memory_is_bounded() {
        let mut c = Correlator::new(10);
        for n in 0..(ANSWERED_MEMORY as u32 + 10) {
            c.request(Direction::ClientToAgent, id(n), "x", 1, 0);
            c.response(None, &id(n));
        }
        assert_eq!(c.answered[0].len(), ANSWERED_MEMORY);
        // The oldest answered id is forgotten: a repeat is unknown, not duplicate.
        assert_eq!(
            c.response(None, &id(0)),
            ResponseOutcome::Unknown { direction: None }
        );
    }
}
