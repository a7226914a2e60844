import Foundation

/// `NSRegularExpression`, which is immutable and documented as safe to share between threads,
/// with `.` matching line breaks too: the patterns of `ScriptedServer` rules and WebSocket script
/// rules.
package struct RegularExpression: @unchecked Sendable {
    // @unchecked Sendable: NSRegularExpression is immutable once created.
    let value: NSRegularExpression

    /// Why a pattern doesn't compile.
    package struct Invalid: Error {
        package let reason: String
    }

    package init(_ pattern: String) throws(Invalid) {
        do {
            value = try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        } catch {
            // Foundation's own message says nothing more ("The value is invalid"), so say where to look.
            throw Invalid(
                reason: "check for unbalanced parentheses or brackets, a dangling quantifier, or a lone backslash")
        }
    }

    /// The groups of the first match in `text`: index 0 is the whole match; unmatched groups are empty.
    package func groups(in text: String) -> [String]? {
        let whole = NSRange(text.startIndex..<text.endIndex, in: text)
        guard let match = value.firstMatch(in: text, options: [], range: whole) else { return nil }
        return (0..<match.numberOfRanges).map { index in
            Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
        }
    }
}
