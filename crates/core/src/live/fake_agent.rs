//! `acp-plan fake-agent`: a scripted agent on stdin/stdout.
//!
//! The script is a trace (bare or envelopes, one message a line) or a
//! vector group (`{"cases": [{"id", "messages": [envelopes]}]}`, one case
//! chosen). The fake agent plays its agent side: each request the client
//! sends is matched with the script's next unused client request of the
//! same method, and the agent messages that follow that request in the
//! script (up to the next client request) are sent back in order: the plan
//! notifications of a prompt turn, then its response (with the client's
//! request id). A request the fake agent sends (e.g. a permission request)
//! waits for the client's response before anything after it is sent.
//!
//! Session ids: a session the script's agent creates (`session/new`) gets a
//! fresh id (`fake-session-N`); a session the client names (`session/load`,
//! `session/prompt`, ...) maps the script's id to the client's. Every
//! `sessionId` member sent is rewritten through that map; ids the script
//! never established are sent as written (so a script can break
//! `SES-UNKNOWN-SESSION` on purpose).
//!
//! A client request the script has no (more) exchanges for gets "method not
//! found", except `session/prompt`, which ends its turn at once
//! (`end_turn`).
//!
//! Raw lines: an envelope `{"direction": "agent_to_client", "raw": TEXT}`
//! sends TEXT as one line exactly as written (what a JSON value cannot
//! hold: repeated members, lone surrogate escapes, numbers past any float,
//! nesting deeper than parsers go), except that each session id the
//! script established, as a quoted JSON string, becomes the id on this
//! connection. A raw line is never awaited as a request.

use crate::jsonrpc::{direction_of_method, Direction};
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{self, BufRead, Write};
use std::path::Path;

/// A script that cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    /// The script could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The script's path as given.
        path: String,
        /// Why it could not be read.
        source: io::Error,
    },
    /// A line of the script is wrong.
    #[error("{path}:{line}: {message}")]
    Line {
        /// The script's path as given.
        path: String,
        /// The 1-based line number.
        line: u64,
        /// What is wrong with it.
        message: String,
    },
    /// The script as a whole is wrong (for instance, `--case` names no case of the vector file).
    #[error("{path}: {message}")]
    File {
        /// The script's path as given.
        path: String,
        /// What is wrong with it.
        message: String,
    },
}

/// The agent side of a script, grouped by the client requests it answers.
#[derive(Clone, Debug, Default)]
pub struct Script {
    /// Agent messages before the first client request (sent at start).
    preamble: Vec<Outgoing>,
    exchanges: Vec<Exchange>,
}

/// One line the agent sends: a message, or a raw line's text.
#[derive(Clone, Debug, PartialEq)]
enum Outgoing {
    Message(Value),
    Raw(String),
}

#[derive(Clone, Debug)]
struct Exchange {
    method: String,
    id: Value,
    params: Option<Value>,
    /// What the agent sent after this request, up to the next one.
    replies: Vec<Outgoing>,
    used: bool,
}

impl Script {
    /// Read a trace or vector file; `case` picks a vector case by id.
    pub fn load(path: &Path, case: Option<&str>) -> Result<Script, ScriptError> {
        let name = path.display().to_string();
        let text = std::fs::read(path).map_err(|source| ScriptError::Io {
            path: name.clone(),
            source,
        })?;
        Script::parse(&name, &text, case)
    }

    /// Parse script text (`name` is for messages).
    pub fn parse(name: &str, text: &[u8], case: Option<&str>) -> Result<Script, ScriptError> {
        if let Ok(Value::Object(group)) = serde_json::from_slice::<Value>(text) {
            if let Some(cases) = group.get("cases") {
                return Script::from_vector(name, cases, case);
            }
        }
        if case.is_some() {
            return Err(ScriptError::File {
                path: name.into(),
                message: "--case applies to vector files (a JSON object with `cases`)".into(),
            });
        }
        let mut records = Vec::new();
        let mut placer = Placer::default();
        for (i, line) in text.split(|&b| b == b'\n').enumerate() {
            let line_no = i as u64 + 1;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let bad = |message: String| ScriptError::Line {
                path: name.into(),
                line: line_no,
                message,
            };
            let value: Value = serde_json::from_slice(line)
                .map_err(|e| bad(format!("not a JSON message: {e}")))?;
            let (direction, message) = placer.place(value).map_err(bad)?;
            records.push((direction, message));
        }
        Ok(Script::from_records(records))
    }

    fn from_vector(name: &str, cases: &Value, case: Option<&str>) -> Result<Script, ScriptError> {
        let bad = |message: String| ScriptError::File {
            path: name.into(),
            message,
        };
        let cases = cases
            .as_array()
            .ok_or_else(|| bad("`cases` is not an array".into()))?;
        let ids: Vec<&str> = cases
            .iter()
            .filter_map(|c| c.get("id").and_then(Value::as_str))
            .collect();
        let chosen = match case {
            Some(id) => cases
                .iter()
                .find(|c| c.get("id").and_then(Value::as_str) == Some(id))
                .ok_or_else(|| bad(format!("no case `{id}` (cases: {})", ids.join(", "))))?,
            None => match cases.as_slice() {
                [only] => only,
                _ => {
                    return Err(bad(format!(
                        "the file has {} cases; choose one with --case (cases: {})",
                        cases.len(),
                        ids.join(", ")
                    )))
                }
            },
        };
        let messages = chosen
            .get("messages")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("the case has no `messages` array".into()))?;
        let mut placer = Placer::default();
        let mut records = Vec::new();
        for (i, message) in messages.iter().enumerate() {
            let placed = placer
                .place(message.clone())
                .map_err(|m| bad(format!("message {}: {m}", i + 1)))?;
            records.push(placed);
        }
        Ok(Script::from_records(records))
    }

    fn from_records(records: Vec<(Direction, Outgoing)>) -> Script {
        let mut script = Script::default();
        for (direction, line) in records {
            match (direction, line) {
                (Direction::ClientToAgent, Outgoing::Message(message)) => {
                    let method = message.get("method").and_then(Value::as_str);
                    if let (Some(method), Some(id)) = (method, message.get("id")) {
                        script.exchanges.push(Exchange {
                            method: method.to_owned(),
                            id: id.clone(),
                            params: message.get("params").cloned(),
                            replies: Vec::new(),
                            used: false,
                        });
                    }
                }
                // The placer lets no raw line through on the client's side.
                (Direction::ClientToAgent, Outgoing::Raw(_)) => {}
                (Direction::AgentToClient, line) => match script.exchanges.last_mut() {
                    Some(exchange) => exchange.replies.push(line),
                    None => script.preamble.push(line),
                },
            }
        }
        script
    }

    /// How many client requests the script answers.
    pub fn exchanges(&self) -> usize {
        self.exchanges.len()
    }
}

/// Decides who sent each message of a script.
#[derive(Default)]
struct Placer {
    /// Request ids in flight, by the direction the request travelled.
    pending: HashSet<(Direction, String)>,
}

impl Placer {
    fn place(&mut self, value: Value) -> Result<(Direction, Outgoing), String> {
        let Value::Object(object) = value else {
            return Err("not a JSON object".into());
        };
        if let Some(raw) = object.get("raw") {
            let direction = object.get("direction").and_then(Value::as_str);
            if direction != Some("agent_to_client") {
                return Err("a `raw` line is the agent's: its direction is agent_to_client".into());
            }
            let text = raw.as_str().ok_or("`raw` is not a string")?;
            if text.contains('\n') {
                return Err("`raw` holds a line break: one line each".into());
            }
            return Ok((Direction::AgentToClient, Outgoing::Raw(text.to_owned())));
        }
        if object.contains_key("direction") || object.contains_key("message") {
            let direction = object
                .get("direction")
                .and_then(Value::as_str)
                .and_then(Direction::parse)
                .ok_or("envelope `direction` is not client_to_agent or agent_to_client")?;
            let message = object
                .get("message")
                .cloned()
                .ok_or("envelope has no `message`")?;
            self.track(direction, &message);
            return Ok((direction, Outgoing::Message(message)));
        }
        let message = Value::Object(object);
        let method = message.get("method").and_then(Value::as_str);
        let id = message.get("id").map(Value::to_string);
        let direction = match (method, &id) {
            (Some(method), _) => direction_of_method(method).ok_or_else(|| {
                format!("cannot tell who sends `{method}` in a bare trace; use envelopes")
            })?,
            (None, Some(id)) => {
                let to_agent = self
                    .pending
                    .contains(&(Direction::ClientToAgent, id.clone()));
                let to_client = self
                    .pending
                    .contains(&(Direction::AgentToClient, id.clone()));
                match (to_agent, to_client) {
                    (true, false) => Direction::AgentToClient,
                    (false, true) => Direction::ClientToAgent,
                    _ => {
                        return Err(format!(
                            "cannot tell which request response id {id} answers; use envelopes"
                        ))
                    }
                }
            }
            (None, None) => return Err("neither a request nor a response".into()),
        };
        self.track(direction, &message);
        Ok((direction, Outgoing::Message(message)))
    }

    fn track(&mut self, direction: Direction, message: &Value) {
        let Some(id) = message.get("id").map(Value::to_string) else {
            return;
        };
        if message.get("method").is_some() {
            self.pending.insert((direction, id));
        } else {
            self.pending.remove(&(direction.opposite(), id));
        }
    }
}

/// Play `script` against a client on `input` / `output` until the client
/// closes `input`.
pub fn play(mut script: Script, input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut sessions = SessionMap::default();
    let mut outbox: VecDeque<Outgoing> = std::mem::take(&mut script.preamble).into();
    let mut awaiting: Option<Value> = None;
    send_ready(&mut outbox, &mut awaiting, &mut output)?;
    for line in input.split(b'\n') {
        let line = line?;
        let Ok(Value::Object(message)) = serde_json::from_slice::<Value>(&line) else {
            continue;
        };
        let method = message.get("method").and_then(Value::as_str);
        match (method, message.get("id")) {
            (Some(method), Some(id)) => {
                outbox.extend(script.answer(method, id, message.get("params"), &mut sessions));
            }
            (None, Some(id)) if awaiting.as_ref() == Some(id) => awaiting = None,
            // Notifications (session/cancel) and other responses need nothing.
            _ => {}
        }
        send_ready(&mut outbox, &mut awaiting, &mut output)?;
    }
    Ok(())
}

/// Send queued messages until one is a request (which waits for its response).
fn send_ready(
    outbox: &mut VecDeque<Outgoing>,
    awaiting: &mut Option<Value>,
    output: &mut impl Write,
) -> io::Result<()> {
    while awaiting.is_none() {
        match outbox.pop_front() {
            None => break,
            Some(Outgoing::Message(message)) => {
                if message.get("method").is_some() {
                    *awaiting = message.get("id").cloned();
                }
                serde_json::to_writer(&mut *output, &message)?;
            }
            Some(Outgoing::Raw(text)) => output.write_all(text.as_bytes())?,
        }
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}

/// Script session ids to the ids used on this connection.
#[derive(Default)]
struct SessionMap {
    ids: HashMap<String, String>,
    handed_out: u64,
}

impl SessionMap {
    fn rewrite(&self, value: &mut Value) {
        match value {
            Value::Object(object) => {
                for (key, member) in object.iter_mut() {
                    match member {
                        Value::String(id) if key == "sessionId" => {
                            if let Some(live) = self.ids.get(id.as_str()) {
                                *id = live.clone();
                            }
                        }
                        _ => self.rewrite(member),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.rewrite(v)),
            _ => {}
        }
    }

    /// A raw line with each established session id, quoted, replaced.
    fn rewrite_raw(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for (scripted, live) in &self.ids {
            let quoted = |id: &str| Value::String(id.to_owned()).to_string();
            text = text.replace(&quoted(scripted), &quoted(live));
        }
        text
    }
}

fn session_id(params: Option<&Value>) -> Option<&str> {
    params?.get("sessionId")?.as_str()
}

impl Script {
    /// The messages that answer the client's request `method` / `id`.
    fn answer(
        &mut self,
        method: &str,
        id: &Value,
        params: Option<&Value>,
        sessions: &mut SessionMap,
    ) -> Vec<Outgoing> {
        let Some(exchange) = self
            .exchanges
            .iter_mut()
            .find(|e| !e.used && e.method == method)
        else {
            return vec![Outgoing::Message(unscripted(method, id))];
        };
        exchange.used = true;
        if let (Some(scripted), Some(live)) =
            (session_id(exchange.params.as_ref()), session_id(params))
        {
            sessions.ids.insert(scripted.to_owned(), live.to_owned());
        }
        let mut replies = Vec::with_capacity(exchange.replies.len());
        for reply in &exchange.replies {
            let mut reply = match reply {
                Outgoing::Message(message) => message.clone(),
                Outgoing::Raw(text) => {
                    replies.push(Outgoing::Raw(sessions.rewrite_raw(text)));
                    continue;
                }
            };
            let answers_request =
                reply.get("method").is_none() && reply.get("id") == Some(&exchange.id);
            if answers_request {
                if let Some(created) = reply.pointer("/result/sessionId").and_then(Value::as_str) {
                    if !sessions.ids.contains_key(created) {
                        sessions.handed_out += 1;
                        let fresh = format!("fake-session-{}", sessions.handed_out);
                        sessions.ids.insert(created.to_owned(), fresh);
                    }
                }
                if let Some(object) = reply.as_object_mut() {
                    object.insert("id".into(), id.clone());
                }
            }
            sessions.rewrite(&mut reply);
            replies.push(Outgoing::Message(reply));
        }
        replies
    }
}

fn unscripted(method: &str, id: &Value) -> Value {
    if method == "session/prompt" {
        return json!({"jsonrpc": "2.0", "id": id, "result": {"stopReason": "end_turn"}});
    }
    let mut error = Map::new();
    error.insert("code".into(), json!(-32601));
    error.insert(
        "message".into(),
        json!(format!(
            "Method not found: the script has no (more) `{method}` requests"
        )),
    );
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = r#"
{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}
{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}
{"jsonrpc":"2.0","id":1,"result":{"sessionId":"S"}}
{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"S","prompt":[]}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S","update":{"sessionUpdate":"plan","entries":[]}}}
{"jsonrpc":"2.0","id":"perm","method":"session/request_permission","params":{"sessionId":"S","options":[]}}
{"jsonrpc":"2.0","id":"perm","result":{"outcome":{"outcome":"cancelled"}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"other","update":{"sessionUpdate":"plan","entries":[]}}}
{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}
"#;

    fn run(script: &Script, client: &[&str]) -> Vec<Value> {
        let input = client.join("\n");
        let mut output = Vec::new();
        play(script.clone(), input.as_bytes(), &mut output).unwrap();
        output
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect()
    }

    #[test]
    fn raw_lines_are_sent_as_written_with_session_ids_mapped() {
        let raw = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S","update":{"sessionUpdate":"plan","sessionUpdate":"plan_removed","entries":[{"content":"\ud800","n":1e999999}]}}}"#;
        let envelope = json!({"direction": "agent_to_client", "raw": raw}).to_string();
        let script_text = format!(
            "{}\n{}\n{}\n{}\n{envelope}\n{}\n",
            r#"{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"sessionId":"S"}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"S","prompt":[]}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S","update":{"sessionUpdate":"plan","entries":[]}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}"#,
        );
        let script = Script::parse("t", script_text.as_bytes(), None).unwrap();
        let input = [
            r#"{"jsonrpc":"2.0","id":7,"method":"session/new","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":8,"method":"session/prompt","params":{"sessionId":"fake-session-1"}}"#,
        ]
        .join("\n");
        let mut output = Vec::new();
        play(script, input.as_bytes(), &mut output).unwrap();
        let lines: Vec<&[u8]> = output
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(lines.len(), 4);
        // Byte for byte, but for the session id: the repeated member, the
        // lone surrogate escape and the number past any float survive.
        assert_eq!(
            lines[2],
            raw.replace("\"S\"", "\"fake-session-1\"").as_bytes()
        );
        // A raw line cannot be the client's, nor hold a line break.
        let bad = r#"{"direction":"client_to_agent","raw":"{}"}"#;
        assert!(Script::parse("t", bad.as_bytes(), None).is_err());
        let bad = r#"{"direction":"agent_to_client","raw":"{}\n{}"}"#;
        assert!(Script::parse("t", bad.as_bytes(), None).is_err());
    }

    #[test]
    fn plays_the_agent_side_with_mapped_ids() {
        let script = Script::parse("t", SCRIPT.as_bytes(), None).unwrap();
        assert_eq!(script.exchanges(), 3);
        let out = run(
            &script,
            &[
                r#"{"jsonrpc":"2.0","id":10,"method":"initialize","params":{}}"#,
                r#"{"jsonrpc":"2.0","id":11,"method":"session/new","params":{}}"#,
                r#"{"jsonrpc":"2.0","id":12,"method":"session/prompt","params":{"sessionId":"fake-session-1"}}"#,
                r#"{"jsonrpc":"2.0","id":"perm","result":{"outcome":{"outcome":"cancelled"}}}"#,
                r#"{"jsonrpc":"2.0","id":13,"method":"session/prompt","params":{"sessionId":"fake-session-1"}}"#,
                r#"{"jsonrpc":"2.0","id":14,"method":"fs/read_text_file","params":{}}"#,
            ],
        );
        assert_eq!(out[0]["id"], 10);
        assert_eq!(
            out[1],
            json!({"jsonrpc":"2.0","id":11,"result":{"sessionId":"fake-session-1"}})
        );
        assert_eq!(out[2]["params"]["sessionId"], "fake-session-1");
        assert_eq!(out[3]["method"], "session/request_permission");
        // Sent only after the client answered the permission request.
        assert_eq!(
            out[4]["params"]["sessionId"], "other",
            "unknown ids are kept"
        );
        assert_eq!(
            out[5],
            json!({"jsonrpc":"2.0","id":12,"result":{"stopReason":"end_turn"}})
        );
        assert_eq!(
            out[6]["result"]["stopReason"], "end_turn",
            "unscripted prompt"
        );
        assert_eq!(out[7]["error"]["code"], -32601);
        assert_eq!(out.len(), 8);
    }

    #[test]
    fn a_permission_request_waits_for_its_answer() {
        let script = Script::parse("t", SCRIPT.as_bytes(), None).unwrap();
        let out = run(
            &script,
            &[
                r#"{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}"#,
                r#"{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"fake-session-1"}}"#,
            ],
        );
        assert_eq!(out.last().unwrap()["method"], "session/request_permission");
    }

    #[test]
    fn loads_map_the_scripts_session_to_the_clients() {
        let script = Script::parse(
            "t",
            br#"{"direction":"client_to_agent","message":{"jsonrpc":"2.0","id":5,"method":"session/load","params":{"sessionId":"S"}}}
{"direction":"agent_to_client","message":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S","update":{"sessionUpdate":"plan","entries":[]}}}}
{"direction":"agent_to_client","message":{"jsonrpc":"2.0","id":5,"result":{}}}"#,
            None,
        )
        .unwrap();
        let out = run(
            &script,
            &[
                r#"{"jsonrpc":"2.0","id":1,"method":"session/load","params":{"sessionId":"earlier"}}"#,
            ],
        );
        assert_eq!(out[0]["params"]["sessionId"], "earlier");
        assert_eq!(out[1], json!({"jsonrpc":"2.0","id":1,"result":{}}));
    }

    #[test]
    fn vectors_and_errors() {
        let vector = br#"{"description":"d","revision":"v1","cases":[
            {"id":"a","messages":[{"direction":"client_to_agent","message":{"jsonrpc":"2.0","id":1,"method":"initialize"}}]},
            {"id":"b","messages":[]}]}"#;
        assert_eq!(
            Script::parse("v", vector, Some("a")).unwrap().exchanges(),
            1
        );
        let err = Script::parse("v", vector, None).unwrap_err().to_string();
        assert!(err.contains("--case") && err.contains("a, b"), "{err}");
        assert!(Script::parse("v", vector, Some("zz")).is_err());
        let err = Script::parse("t", b"{}\n{\"jsonrpc\":\"2.0\",\"method\":\"_x\"}", None)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("t:1:"), "{err}");
        let err = Script::parse("t", b"\n{\"jsonrpc\":\"2.0\",\"method\":\"_x\"}", None)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("t:2:") && err.contains("envelopes"),
            "{err}"
        );
    }
}
