use serde::Serialize;

/// The languages the portal answers in. English is the default for anything unrecognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Zh,
    Es,
}

impl Lang {
    /// Reads a `lan` parameter or one `Accept-Language` tag. Clients send `cn` and `zh_CN` for
    /// Chinese and `-1` for "no preference".
    pub fn parse(raw: &str) -> Option<Lang> {
        let tag = raw.trim().to_ascii_lowercase();
        let primary = tag.split(['-', '_', ';']).next().unwrap_or_default();
        match primary {
            "en" => Some(Lang::En),
            "zh" | "cn" => Some(Lang::Zh),
            "es" => Some(Lang::Es),
            _ => None,
        }
    }

    /// First supported language of an `Accept-Language` header, in the order the client gave.
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        header.split(',').find_map(Lang::parse)
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
            Lang::Es => "es",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_is_recognised_under_its_common_spellings() {
        for raw in ["zh", "cn", "zh_CN", "zh-CN", "ZH"] {
            assert_eq!(Lang::parse(raw), Some(Lang::Zh), "{raw}");
        }
    }

    #[test]
    fn unknown_languages_are_not_guessed() {
        assert_eq!(Lang::parse("-1"), None);
        assert_eq!(Lang::parse(""), None);
        assert_eq!(Lang::parse("fr"), None);
    }

    #[test]
    fn accept_language_takes_the_first_supported_tag() {
        assert_eq!(
            Lang::from_accept_language("fr-FR,es;q=0.8,en;q=0.5"),
            Some(Lang::Es)
        );
    }
}
