/// `$`-substitutions in scripted replies (`ScriptedServer`'s text commands, a WebSocket script's
/// messages): `$0` is the whole match, `$1`…`$n` its groups, `$$` a dollar sign, and `$word` what
/// `named` gives for it.
package enum DollarSubstitution {
    /// `template` with its substitutions made. A group the pattern doesn't have stands for
    /// nothing; `$12` is group 12 if there is one, else group 1 followed by `2`; a word `named`
    /// doesn't know stays as written.
    package static func apply(
        to template: String, groups: [String], named: (Substring) -> String? = { _ in nil }
    ) -> String {
        guard template.contains("$") else { return template }
        var result = ""
        var rest = Substring(template)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            rest = rest[rest.index(after: dollar)...]
            if rest.first == "$" {
                result += "$"
                rest = rest.dropFirst()
                continue
            }
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty {
                // The longest run of digits that names a group (no group number has 19 digits).
                var taken = digits.prefix(18)
                while let index = Int(taken), index >= groups.count, taken.count > 1 { taken = taken.dropLast() }
                if let index = Int(taken), index < groups.count { result += groups[index] }
                rest = rest.dropFirst(taken.count)
                continue
            }
            let word = rest.prefix { $0.isASCII && $0.isLetter }
            result += named(word) ?? "$" + word
            rest = rest.dropFirst(word.count)
        }
        return result + rest
    }
}
