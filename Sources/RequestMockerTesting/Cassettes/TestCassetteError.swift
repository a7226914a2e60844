import Foundation

/// A mistake in naming a test's cassette.
public enum TestCassetteError: Error, CustomStringConvertible {
    /// Two tests would record into one file (same file and test name, in different suites).
    case sharedByTwoTests(path: String, first: String, second: String)

    public var description: String {
        switch self {
        case .sharedByTwoTests(let path, let first, let second):
            "the cassette \(path) is already used by \(first), so \(second) can't use it too: "
                + "give one of them its own name with .cassette(named: \"…\")"
        }
    }
}
