//! Which side sends which ACP method, for bare traces.

use super::Direction;

/// The direction of every method the official schemas define (all
/// vendored releases, v1 and v2, stable and unstable), from their `x-side`:
/// `None` for a method either side may send. `tests/suite/schema_agreement.rs`
/// checks it against each vendored schema.
pub const METHODS: &[(&str, Option<Direction>)] = &[
    ("initialize", Some(Direction::ClientToAgent)),
    ("authenticate", Some(Direction::ClientToAgent)),
    ("logout", Some(Direction::ClientToAgent)),
    ("auth/login", Some(Direction::ClientToAgent)),
    ("auth/logout", Some(Direction::ClientToAgent)),
    ("auth/status", Some(Direction::ClientToAgent)),
    ("auth/status_update", Some(Direction::AgentToClient)),
    ("providers/list", Some(Direction::ClientToAgent)),
    ("providers/set", Some(Direction::ClientToAgent)),
    ("providers/disable", Some(Direction::ClientToAgent)),
    ("session/new", Some(Direction::ClientToAgent)),
    ("session/load", Some(Direction::ClientToAgent)),
    ("session/resume", Some(Direction::ClientToAgent)),
    ("session/fork", Some(Direction::ClientToAgent)),
    ("session/prompt", Some(Direction::ClientToAgent)),
    ("session/cancel", Some(Direction::ClientToAgent)),
    ("session/close", Some(Direction::ClientToAgent)),
    ("session/delete", Some(Direction::ClientToAgent)),
    ("session/list", Some(Direction::ClientToAgent)),
    ("session/archive", Some(Direction::ClientToAgent)),
    ("session/unarchive", Some(Direction::ClientToAgent)),
    ("session/options", Some(Direction::ClientToAgent)),
    ("session/status", Some(Direction::ClientToAgent)),
    ("session/set_mode", Some(Direction::ClientToAgent)),
    ("session/set_config_option", Some(Direction::ClientToAgent)),
    ("session/set_title", Some(Direction::ClientToAgent)),
    ("tool_call/cancel", Some(Direction::ClientToAgent)),
    // v2's terminal/cancel is the client's, unlike v1's terminal/* calls.
    ("terminal/cancel", Some(Direction::ClientToAgent)),
    ("session/update", Some(Direction::AgentToClient)),
    ("session/request_permission", Some(Direction::AgentToClient)),
    ("elicitation/create", Some(Direction::AgentToClient)),
    ("elicitation/complete", Some(Direction::AgentToClient)),
    ("fs/read_text_file", Some(Direction::AgentToClient)),
    ("fs/write_text_file", Some(Direction::AgentToClient)),
    ("terminal/create", Some(Direction::AgentToClient)),
    ("terminal/output", Some(Direction::AgentToClient)),
    ("terminal/release", Some(Direction::AgentToClient)),
    ("terminal/wait_for_exit", Some(Direction::AgentToClient)),
    ("terminal/kill", Some(Direction::AgentToClient)),
    ("mcp/message", None),
];

/// The direction a request or notification with this method travels, when
/// the method alone says so. `_`-prefixed extension methods, methods either
/// side may send and unknown methods return `None`.
pub fn direction_of_method(method: &str) -> Option<Direction> {
    if let Some((_, direction)) = METHODS.iter().find(|(known, _)| *known == method) {
        return *direction;
    }
    match method {
        // Methods of earlier texts that no vendored schema lists.
        m if m.starts_with("fs/") || m.starts_with("terminal/") => Some(Direction::AgentToClient),
        // Everything else under session/ is a client call (set_model, ...).
        m if m.starts_with("session/") => Some(Direction::ClientToAgent),
        _ => None,
    }
}

/// The methods ACP defines (both revisions), as static text: what a
/// request in flight keeps instead of a copy of its method.
pub fn known(method: &str) -> Option<&'static str> {
    const KNOWN: &[&str] = &[
        "initialize",
        "authenticate",
        "logout",
        "session/new",
        "session/load",
        "session/resume",
        "session/prompt",
        "session/cancel",
        "session/set_mode",
        "session/set_model",
        "session/set_config_option",
        "session/list",
        "session/fork",
        "session/close",
        "session/update",
        "session/request_permission",
        "fs/read_text_file",
        "fs/write_text_file",
        "terminal/create",
        "terminal/output",
        "terminal/release",
        "terminal/wait_for_exit",
        "terminal/kill",
    ];
    KNOWN.iter().copied().find(|known| *known == method)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_methods() {
        assert_eq!(
            direction_of_method("session/prompt"),
            Some(Direction::ClientToAgent)
        );
        assert_eq!(
            direction_of_method("session/update"),
            Some(Direction::AgentToClient)
        );
        assert_eq!(
            direction_of_method("fs/read_text_file"),
            Some(Direction::AgentToClient)
        );
        assert_eq!(
            direction_of_method("terminal/create"),
            Some(Direction::AgentToClient)
        );
        assert_eq!(
            direction_of_method("auth/login"),
            Some(Direction::ClientToAgent)
        );
        assert_eq!(
            direction_of_method("terminal/cancel"),
            Some(Direction::ClientToAgent)
        );
        assert_eq!(direction_of_method("mcp/message"), None);
        assert_eq!(direction_of_method("_zed/x"), None);
        assert_eq!(direction_of_method("unknown"), None);
    }
}
