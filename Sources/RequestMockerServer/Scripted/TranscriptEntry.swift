import Foundation
import RequestMocker

/// One thing that happened on a ``ScriptedServer`` connection.
///
/// ```swift
/// #expect(server.transcript.contains { $0.kind == .input("USER anonymous") })
/// print(server.transcript.map(\.description).joined(separator: "\n"))   // #1 < "USER anonymous" …
/// ```
public struct TranscriptEntry: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// A unit of input, as the rules saw it.
        case input(String)
        /// Bytes sent.
        case output(Data)
        /// Something else: a connection opened or closed, input no rule matched.
        case event(String)
    }

    /// Which connection, numbered from 1 in the order they were accepted (data connections too).
    public let connection: Int
    /// What happened on it.
    public let kind: Kind

    /// The output as text (UTF-8), or `nil` for input and events.
    public var outputText: String? {
        if case .output(let data) = kind { String(decoding: data, as: UTF8.self) } else { nil }
    }

    public var description: String {
        switch kind {
        case .input(let text): "#\(connection) < \(text.debugDescription)"
        case .output(let data): "#\(connection) > \(String(decoding: data, as: UTF8.self).debugDescription)"
        case .event(let text): "#\(connection) * \(text)"
        }
    }
}
