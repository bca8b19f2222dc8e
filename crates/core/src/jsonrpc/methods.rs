//! Which side sends which ACP method, for bare traces.

use super::Direction;

/// The direction a request or notification with this method travels, when
/// the method alone says so. `_`-prefixed extension methods and unknown
/// methods return `None`.
pub fn direction_of_method(method: &str) -> Option<Direction> {
    match method {
        "initialize" | "authenticate" | "logout" => Some(Direction::ClientToAgent),
        "session/update" | "session/request_permission" => Some(Direction::AgentToClient),
        m if m.starts_with("fs/") || m.starts_with("terminal/") => Some(Direction::AgentToClient),
        // Everything else under session/ is a client call: new, load, resume,
        // prompt, cancel, set_mode, set_model, set_config_option, list, fork, close.
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
        assert_eq!(direction_of_method("_zed/x"), None);
        assert_eq!(direction_of_method("unknown"), None);
    }
}
