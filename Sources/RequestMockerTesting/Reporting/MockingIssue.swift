import Testing
import XCTest

/// Reports a test failure to whichever framework is running the test: `Issue.record` inside a
/// Swift Testing test, `XCTFail` otherwise. Every report this module makes goes through here.
///
/// Use it in your own helpers so they work under both frameworks and point at your caller:
///
/// ```swift
/// func expectSignedIn(_ registry: MockRegistry, fileID: String = #fileID, filePath: StaticString = #filePath,
///                     line: UInt = #line, column: UInt = #column) {
///     if registry.requests(matching: .post("/login")).isEmpty {
///         MockingIssue.record("never signed in", fileID: fileID, filePath: filePath, line: line, column: column)
///     }
/// }
/// ```
public enum MockingIssue {
    /// Records a failure at the given place (the caller's, by default).
    public static func record(
        _ message: String,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        record(message, at: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Records a failure at `location`.
    static func record(_ message: String, at location: CodeLocation) {
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: location.sourceLocation)
        } else {
            XCTFail(message, file: location.filePath, line: location.line)
        }
    }

    /// Records a failure at `place`. A Swift Testing place (a test's declaration) only exists
    /// while Swift Testing runs, so it never needs `XCTFail`.
    static func record(_ message: String, at place: ReportPlace) {
        switch place {
        case .code(let location): record(message, at: location)
        case .test(let location): Issue.record(Comment(rawValue: message), sourceLocation: location)
        }
    }
}

/// Where a report points: a place captured from the user's call, or a Swift Testing test's
/// declaration.
enum ReportPlace {
    case code(CodeLocation)
    case test(SourceLocation)
}

extension CodeLocation {
    /// The same place, as Swift Testing spells it.
    var sourceLocation: SourceLocation {
        SourceLocation(fileID: fileID, filePath: "\(filePath)", line: max(Int(line), 1), column: max(Int(column), 1))
    }
}
