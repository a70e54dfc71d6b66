extension RosterLanguage {
    /// The 184 two-letter codes of ISO 639-1, the only languages a roster can be fetched in (SPEC §4).
    ///
    /// A list rather than "any two letters", so an invented code (`xx`) is rejected where the operator wrote it
    /// instead of becoming a roster the endpoint answers in its default language. Includes `bh`, withdrawn from
    /// the standard in 2021 but still in its published table; leaves out `sh`, deprecated since 2000 in favour of
    /// `sr`, `hr` and `bs`.
    public static let iso639_1: Set<String> = [
        "aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az",
        "ba", "be", "bg", "bh", "bi", "bm", "bn", "bo", "br", "bs",
        "ca", "ce", "ch", "co", "cr", "cs", "cu", "cv", "cy",
        "da", "de", "dv", "dz",
        "ee", "el", "en", "eo", "es", "et", "eu",
        "fa", "ff", "fi", "fj", "fo", "fr", "fy",
        "ga", "gd", "gl", "gn", "gu", "gv",
        "ha", "he", "hi", "ho", "hr", "ht", "hu", "hy", "hz",
        "ia", "id", "ie", "ig", "ii", "ik", "io", "is", "it", "iu",
        "ja", "jv",
        "ka", "kg", "ki", "kj", "kk", "kl", "km", "kn", "ko", "kr", "ks", "ku", "kv", "kw", "ky",
        "la", "lb", "lg", "li", "ln", "lo", "lt", "lu", "lv",
        "mg", "mh", "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my",
        "na", "nb", "nd", "ne", "ng", "nl", "nn", "no", "nr", "nv", "ny",
        "oc", "oj", "om", "or", "os",
        "pa", "pi", "pl", "ps", "pt",
        "qu",
        "rm", "rn", "ro", "ru", "rw",
        "sa", "sc", "sd", "se", "sg", "si", "sk", "sl", "sm", "sn", "so", "sq", "sr", "ss", "st", "su", "sv", "sw",
        "ta", "te", "tg", "th", "ti", "tk", "tl", "tn", "to", "tr", "ts", "tt", "tw", "ty",
        "ug", "uk", "ur", "uz",
        "ve", "vi", "vo",
        "wa", "wo",
        "xh",
        "yi", "yo",
        "za", "zh", "zu",
    ]

    /// How many languages one storefront may list: Canada, Switzerland, Belgium and India need two to four, and
    /// every language is a roster of its own, refreshed and exported, so a long list is a mistake (or an attack
    /// on the upstream budget), not a configuration.
    public static let maximumPerStorefront = 8
}
