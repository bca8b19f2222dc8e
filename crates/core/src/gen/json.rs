//! A small JSON object writer with a fixed member order, so rendered traces
//! are byte-for-byte deterministic whatever features `serde_json` is built
//! with (`preserve_order` changes `Map`'s order).

use std::fmt::Write as _;

/// A JSON string literal.
pub fn string(text: &str) -> String {
    // Serializing a `str` cannot fail.
    serde_json::to_string(text).unwrap_or_default()
}

/// Builds `{"k":v,...}` in the order members are added.
#[derive(Default)]
pub struct Object {
    text: String,
}

impl Object {
    pub fn new() -> Object {
        Object {
            text: String::from("{"),
        }
    }

    /// A member whose value is already JSON text.
    pub fn raw(mut self, key: &str, value: &str) -> Object {
        if self.text.len() > 1 {
            self.text.push(',');
        }
        self.text.push_str(&string(key));
        self.text.push(':');
        self.text.push_str(value);
        self
    }

    pub fn str(self, key: &str, value: &str) -> Object {
        let value = string(value);
        self.raw(key, &value)
    }

    pub fn num(self, key: &str, value: u64) -> Object {
        let mut text = String::new();
        let _ = write!(text, "{value}");
        self.raw(key, &text)
    }

    pub fn obj(self, key: &str, value: Object) -> Object {
        let value = value.finish();
        self.raw(key, &value)
    }

    pub fn finish(mut self) -> String {
        self.text.push('}');
        self.text
    }
}

/// `[a,b,...]` from JSON texts.
pub fn array<I: IntoIterator<Item = String>>(items: I) -> String {
    let mut text = String::from("[");
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&item);
    }
    text.push(']');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_keep_member_order_and_escape() {
        let text = Object::new()
            .str("z", "a\"b\n")
            .num("a", 7)
            .obj("m", Object::new())
            .raw("l", &array(["1".to_string(), "true".to_string()]))
            .finish();
        assert_eq!(text, r#"{"z":"a\"b\n","a":7,"m":{},"l":[1,true]}"#);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["z"], "a\"b\n");
    }
}
