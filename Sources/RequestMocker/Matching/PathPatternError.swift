/// A path pattern that could not be parsed: what is wrong, where, and what to do.
///
/// ```swift
/// do { _ = try PathPattern(validating: "/users/<>") } catch let error as PathPatternError {
///     print(error) // invalid path pattern "/users/<>" at column 9: empty variable name: ...
/// }
/// ```
public struct PathPatternError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    /// The 1-based column (in characters) of the mistake.
    public let column: Int
    /// What is wrong and how to fix it.
    public let reason: String

    public var description: String {
        "invalid path pattern \"\(pattern)\" at column \(column): \(reason)"
    }
}
