//! `acp-plan fake-client`: a small conformant ACP client, the reference
//! `acp-plan client` is tested against, with deliberate flaws ([`Flaw`])
//! to see that the gate catches each one (as `gen --inject` does for traces).
//!
//! It starts its agent from one command line (`--agent {agent}`),
//! initializes (advertising the plan capability), creates a session,
//! prompts once, prints every plan it is sent with control characters
//! escaped, allows permission requests, and exits when the turn ends.

use serde_json::{json, Value};
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::str::FromStr;

/// A deliberate fault of the fake client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flaw {
    /// Advertise the plan capability as `planCapabilities` (the draft's key)
    /// under protocol v1 (CAP-RENAMED).
    CapabilitySpelling,
    /// Send `session/prompt` before `initialize` (SES-BEFORE-INIT).
    PromptFirst,
    /// Abort on the first plan it is sent (ROBUST-CRASH).
    CrashOnPlan,
    /// Never answer the permission request (ROBUST-HANG).
    Hang,
    /// Print plan text without escaping control characters (ROBUST-TERMINAL-ESCAPE).
    RawEscapes,
    /// Call `session/load` although the agent did not advertise
    /// `loadSession` (SES-LOAD-NOT-ADVERTISED).
    LoadWithoutCapability,
}

impl Flaw {
    /// Every flaw, in the order `--flaw` lists them.
    pub const ALL: [Flaw; 6] = [
        Flaw::CapabilitySpelling,
        Flaw::PromptFirst,
        Flaw::CrashOnPlan,
        Flaw::Hang,
        Flaw::RawEscapes,
        Flaw::LoadWithoutCapability,
    ];

    /// The flaw's name for `--flaw`.
    pub fn name(self) -> &'static str {
        match self {
            Flaw::CapabilitySpelling => "capability-spelling",
            Flaw::PromptFirst => "prompt-first",
            Flaw::CrashOnPlan => "crash-on-plan",
            Flaw::Hang => "hang",
            Flaw::RawEscapes => "raw-escapes",
            Flaw::LoadWithoutCapability => "load-without-capability",
        }
    }
}

impl fmt::Display for Flaw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Flaw {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Flaw::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Flaw::ALL.iter().map(|f| f.name()).collect();
                format!("unknown flaw `{s}` (expected one of {})", names.join(", "))
            })
    }
}

/// How the fake client runs.
#[derive(Clone, Debug)]
pub struct FakeClient {
    /// The agent's command line (split as a POSIX shell splits words).
    pub agent: String,
    /// The `protocolVersion` sent in `initialize`; 2 and above also send v2's `initialize`
    /// members (`info`, `capabilities`).
    pub protocol_version: u64,
    /// The text of the one prompt turn.
    pub prompt: String,
    /// Load (v1: `session/load`, when the agent advertised `loadSession`;
    /// v2: `session/resume` replaying from the start) the session with
    /// this id instead of creating one.
    pub load: Option<String>,
    /// A protocol fault to commit on purpose, to see a client-side checker catch it; `None`
    /// plays conformant.
    pub flaw: Option<Flaw>,
}

/// Split a command line into words: whitespace separates, single quotes
/// keep everything, double quotes keep all but `\"` and `\\`, a backslash
/// outside quotes keeps the next character.
pub(crate) fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("unterminated single quote".into()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("unterminated double quote".into()),
                        },
                        Some(c) => w.push(c),
                        None => return Err("unterminated double quote".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err("a backslash at the end".into()),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// Plan text as printed: control characters escaped (`\u{1b}`), so that
/// an agent's text can never drive the user's terminal.
pub(crate) fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

impl FakeClient {
    /// Run one prompt turn against the agent, printing plans to `screen`.
    pub fn run(&self, screen: &mut impl Write) -> io::Result<()> {
        let words =
            split_words(&self.agent).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty agent command"))?;
        let mut agent = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let (Some(mut to_agent), Some(from_agent)) = (agent.stdin.take(), agent.stdout.take())
        else {
            return Err(io::Error::other("the agent's streams were not piped"));
        };
        let mut lines = BufReader::new(from_agent).lines();
        let mut send = move |message: Value| -> io::Result<()> {
            serde_json::to_writer(&mut to_agent, &message)?;
            to_agent.write_all(b"\n")?;
            to_agent.flush()
        };
        let v2 = self.protocol_version >= 2;
        if self.flaw == Some(Flaw::PromptFirst) {
            send(
                json!({"jsonrpc": "2.0", "id": 0, "method": "session/prompt",
                "params": {"sessionId": "early", "prompt": [{"type": "text", "text": self.prompt}]}}),
            )?;
        }
        let capability_key = match self.flaw {
            Some(Flaw::CapabilitySpelling) => "planCapabilities",
            _ => "plan",
        };
        let info = json!({"name": "acp-plan-fake-client", "version": env!("CARGO_PKG_VERSION")});
        let initialize = if v2 {
            json!({"protocolVersion": self.protocol_version, "info": info, "capabilities": {}})
        } else {
            json!({"protocolVersion": self.protocol_version, "clientInfo": info,
                   "clientCapabilities": {"fs": {"readTextFile": false, "writeTextFile": false},
                                          "terminal": false, capability_key: {}}})
        };
        send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize}))?;
        let mut session: Option<String> = None;
        let mut loading: Option<String> = None;
        let mut prompt_answered = false;
        let mut idle = !v2;
        while let Some(line) = lines.next().transpose()? {
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            let method = message.get("method").and_then(Value::as_str);
            match (method, message.get("id")) {
                (None, Some(id)) if *id == json!(1) => {
                    let advertised = v2
                        || message.pointer("/result/agentCapabilities/loadSession")
                            == Some(&json!(true));
                    let load = match (&self.load, self.flaw) {
                        (_, Some(Flaw::LoadWithoutCapability)) => {
                            Some(self.load.clone().unwrap_or_else(|| "saved-session".into()))
                        }
                        (Some(saved), _) if advertised => Some(saved.clone()),
                        _ => None,
                    };
                    let request = match &load {
                        Some(saved) if v2 => json!({"jsonrpc": "2.0", "id": 2,
                            "method": "session/resume", "params": {"sessionId": saved,
                            "cwd": "/", "mcpServers": [], "replayFrom": {"type": "start"}}}),
                        Some(saved) => json!({"jsonrpc": "2.0", "id": 2, "method": "session/load",
                            "params": {"sessionId": saved, "cwd": "/", "mcpServers": []}}),
                        None => json!({"jsonrpc": "2.0", "id": 2, "method": "session/new",
                            "params": {"cwd": "/", "mcpServers": []}}),
                    };
                    loading = load;
                    send(request)?;
                }
                (None, Some(id)) if *id == json!(2) => {
                    // A load or resume answer names no session: it is the one asked for.
                    let id = match loading.take() {
                        Some(saved) => saved,
                        None => message
                            .pointer("/result/sessionId")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_owned(),
                    };
                    send(
                        json!({"jsonrpc": "2.0", "id": 3, "method": "session/prompt",
                        "params": {"sessionId": id, "prompt": [{"type": "text", "text": self.prompt}]}}),
                    )?;
                    session = Some(id);
                }
                (None, Some(id)) if *id == json!(3) => prompt_answered = true,
                (Some("session/update"), None) => {
                    let update = message
                        .pointer("/params/update")
                        .cloned()
                        .unwrap_or_default();
                    if update.get("sessionUpdate") == Some(&json!("state_update")) {
                        idle = update.get("state") == Some(&json!("idle"));
                    }
                    self.show(&update, screen)?;
                }
                (Some("session/request_permission"), Some(id)) => {
                    if self.flaw == Some(Flaw::Hang) {
                        continue;
                    }
                    let options = message
                        .pointer("/params/options")
                        .and_then(Value::as_array)
                        .cloned()
                        .unwrap_or_default();
                    let allow = options.iter().find(|o| {
                        matches!(
                            o.get("kind").and_then(Value::as_str),
                            Some("allow_once" | "allow_always")
                        )
                    });
                    let outcome = match allow.and_then(|o| o.get("optionId")) {
                        Some(option) => json!({"outcome": "selected", "optionId": option}),
                        None => json!({"outcome": "cancelled"}),
                    };
                    send(json!({"jsonrpc": "2.0", "id": id, "result": {"outcome": outcome}}))?;
                }
                (Some(method), Some(id)) => {
                    send(json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601,
                        "message": format!("Method not found: {}", printable(method))}}))?;
                }
                _ => {}
            }
            if prompt_answered && idle && session.is_some() {
                break;
            }
        }
        drop(send);
        drop(lines);
        let _ = agent.wait();
        Ok(())
    }

    /// Print a plan update.
    fn show(&self, update: &Value, screen: &mut impl Write) -> io::Result<()> {
        let kind = update.get("sessionUpdate").and_then(Value::as_str);
        let (title, plan) = match kind {
            Some("plan") => ("plan".to_owned(), update.clone()),
            Some("plan_update") => {
                let plan = update.get("plan").cloned().unwrap_or_default();
                let id = plan.get("planId").and_then(Value::as_str).unwrap_or("?");
                (format!("plan {}", self.text(id)), plan)
            }
            Some("plan_removed") => {
                let id = update.get("planId").and_then(Value::as_str).unwrap_or("?");
                return writeln!(screen, "plan {} removed", self.text(id));
            }
            _ => return Ok(()),
        };
        if self.flaw == Some(Flaw::CrashOnPlan) {
            std::process::abort();
        }
        writeln!(screen, "{title}:")?;
        if let Some(entries) = plan.get("entries").and_then(Value::as_array) {
            for entry in entries {
                let status = entry.get("status").and_then(Value::as_str).unwrap_or("?");
                let content = entry.get("content").and_then(Value::as_str).unwrap_or("");
                writeln!(screen, "  [{}] {}", self.text(status), self.text(content))?;
            }
        }
        if let Some(content) = plan.get("content").and_then(Value::as_str) {
            writeln!(screen, "{}", self.text(content))?;
        }
        if let Some(uri) = plan.get("uri").and_then(Value::as_str) {
            writeln!(screen, "  see {}", self.text(uri))?;
        }
        screen.flush()
    }

    fn text(&self, text: &str) -> String {
        if self.flaw == Some(Flaw::RawEscapes) {
            text.to_owned()
        } else {
            printable(text)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_as_a_shell_splits_them() {
        assert_eq!(
            split_words(r#"/bin/acp-plan agent-relay '/tmp/a b/it'\''s' "x \"y\"" z\ w"#).unwrap(),
            [
                "/bin/acp-plan",
                "agent-relay",
                "/tmp/a b/it's",
                "x \"y\"",
                "z w"
            ]
        );
        assert_eq!(split_words("  ").unwrap(), Vec::<String>::new());
        assert_eq!(split_words("''").unwrap(), [""]);
        assert!(split_words("'open").is_err());
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(
            printable("a\u{1b}[2Jb\u{7}\tc\u{9b}"),
            "a\\u{1b}[2Jb\\u{7}\tc\\u{9b}"
        );
        assert_eq!("hang".parse(), Ok(Flaw::Hang));
        assert!("nope".parse::<Flaw>().is_err());
    }
}
