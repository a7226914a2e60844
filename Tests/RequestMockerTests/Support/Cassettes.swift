import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// Opens a cassette ignoring `REQUEST_MOCKER_RECORD_MODE`, so a developer who set it for their
/// own suite doesn't change what these tests pin.
func openCassette(
    _ url: URL,
    record: RecordMode = .once,
    playback: PlaybackMode = .momentary,
    matchers: [CassetteMatcher] = CassetteMatcher.default,
    redaction: Redaction = .default,
    hosts: HostFilter = .all,
    repeatsLastResponse: Bool = false,
    recordsErrors: Bool = false
) throws -> Cassette {
    try Cassette(
        contentsOf: url, record: record, playback: playback, matchers: matchers, redaction: redaction,
        hosts: hosts, repeatsLastResponse: repeatsLastResponse, recordsErrors: recordsErrors, environment: [:])
}

func text(_ data: Data) -> String {
    String(decoding: data, as: UTF8.self)
}

extension JSONValue {
    func arrayContains(_ element: JSONValue) -> Bool {
        if case .array(let elements) = self { elements.contains(element) } else { false }
    }
}

/// A copy of a HAR fixture in a temporary folder, so tests that save can't touch the original.
func harFixture(_ name: String, in folder: TemporaryFolder) throws -> URL {
    let original = try #require(
        Bundle.module.url(forResource: name, withExtension: "har", subdirectory: "Fixtures/HAR"))
    return try folder.write(name + ".har", Data(contentsOf: original))
}
