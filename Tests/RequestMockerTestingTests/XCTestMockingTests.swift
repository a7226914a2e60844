import Foundation
import RequestMockerServer
import RequestMockerTestSupport
import RequestMockerTesting
import XCTest

final class XCTestMockingTests: XCTestCase {
    private var mocks: MockRegistry!

    override func setUp() {
        super.setUp()
        mocks = mockRegistry()
        mocks.register(.get("https://api.test/users/<id>"), respond: .json(["id": 7, "name": "Ada"]))
    }

    func testTheRegistryMadeInSetUpAnswersThroughItsSession() async throws {
        let (data, response) = try await mocks.session.data(from: XCTUnwrap(URL(string: "https://api.test/users/7")))
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"id":7,"name":"Ada"}"#)
        mocks.assertRequested(.get("/users/<id>"), times: 1)
        mocks.assertNotRequested(.delete("/users/<id>"))
    }

    func testEachTestGetsANewRegistry() {
        XCTAssertEqual(mocks.filters.count, 1)
        XCTAssertTrue(mocks.journal.isEmpty)
        XCTAssertFalse(mocks === MockRegistry.shared)
    }

    func testACassetteNamedAfterTheTestIsRecordedAndSaved() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("RequestMockerTestingTests-\(UUID().uuidString)", isDirectory: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(
            "__Cassettes__/XCTestMockingTests/testACassetteNamedAfterTheTestIsRecordedAndSaved.har"
        )
        // Teardown blocks run last-added first: this one checks after the cassette's has saved it.
        addTeardownBlock {
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: file.path), "the cassette was not saved at \(file.path)")
        }
        let origin = MockRegistry()
        origin.register(.get("/greeting"), respond: .string("hello"))
        let server = MockServer(registry: origin)
        let base = try server.start()
        addTeardownBlock { server.stop() }

        let cassette = try cassette(in: mocks, record: .once, directory: directory)
        XCTAssertEqual(cassette.url, file)
        XCTAssertTrue(cassette.isNew)
        // The registry's filter answers first; the cassette records only what it doesn't answer.
        let (user, _) = try await mocks.session.data(from: XCTUnwrap(URL(string: "https://api.test/users/7")))
        XCTAssertEqual(String(decoding: user, as: UTF8.self), #"{"id":7,"name":"Ada"}"#)
        let (greeting, _) = try await mocks.session.data(from: base.appendingPathComponent("greeting"))
        XCTAssertEqual(String(decoding: greeting, as: UTF8.self), "hello")
        XCTAssertEqual(cassette.interactions.map(\.request.url.path), ["/greeting"])
    }

    func testAMissingPlaybackOnlyCassetteIsAnErrorWhenOpened() {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("RequestMockerTestingTests-\(UUID().uuidString)", isDirectory: true)
        XCTAssertThrowsError(try cassette(in: mocks, record: .none, named: "typo", directory: directory)) { error in
            XCTAssertEqual(
                "\(error)",
                "cassette \(directory.path)/__Cassettes__/XCTestMockingTests/typo.har does not exist, "
                    + "and record mode none only plays back; check the path, or record it once: "
                    + "REQUEST_MOCKER_RECORD_MODE=once swift test (or record: .once)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path))
    }
}

#if !canImport(Darwin)
    /// What `mockRegistry()` reports when a test ends, caught here instead of failing the test.
    /// swift-corelibs-xctest sends every failure through `recordFailure`, so overriding it catches
    /// them; `tearDown()` runs after the teardown blocks that report, and checks what they said.
    final class XCTestEndOfTestReportTests: XCTestCase {
        private struct Failure: Equatable {
            let description: String
            let file: String
            let line: Int
        }

        private var caught: [Failure] = []
        private var expected: [Failure] = []

        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            caught.append(
                Failure(
                    description: description, file: URL(fileURLWithPath: filePath).lastPathComponent, line: lineNumber))
        }

        override func tearDown() {
            let caught = caught
            self.caught = []
            if caught != expected {
                super.recordFailure(
                    withDescription: "reported \(caught), expected \(expected)", inFile: #filePath, atLine: #line,
                    expected: true
                )
            }
            super.tearDown()
        }

        func testUnmatchedRequestsAndUnmetExpectationsAreReportedWhenTheTestEnds() async throws {
            let mocks = mockRegistry()
            let registryLine = #line - 1  // the call above
            mocks.register(.post("https://api.test/events").expected(), respond: .status(204))
            let expectedLine = #line - 1  // the call above
            do {
                _ = try await mocks.session.data(from: XCTUnwrap(URL(string: "https://api.test/missing")))
                XCTFail("an unmatched request succeeded")
            } catch {
                XCTAssertTrue(error is RequestMockerError)
            }
            expected = [
                Failure(
                    description: """
                        failed - Unmatched request during the test: no filter matched GET https://api.test/missing
                          nearest filters, closest first:
                            POST https://api.test/events (XCTestMockingTests.swift:\(expectedLine)): \
                        method is GET, filter wants POST
                          (1 filter registered)
                        """, file: "XCTestMockingTests.swift", line: registryLine),
                Failure(
                    description: "failed - Expected a request matching POST https://api.test/events "
                        + "(XCTestMockingTests.swift:\(expectedLine)), but none arrived",
                    file: "XCTestMockingTests.swift",
                    line: expectedLine
                ),
            ]
        }

        func testAFailedAssertionPointsAtItsCall() {
            let mocks = mockRegistry()
            mocks.assertRequested(.get("https://api.test/never"), times: 1)
            let line = #line - 1  // the call above
            expected = [
                Failure(
                    description:
                        "failed - Expected 1 request matching GET https://api.test/never "
                        + "(XCTestMockingTests.swift:\(line)), but 0 arrived\n"
                        + "The journal is empty: this registry saw no requests.",
                    file: "XCTestMockingTests.swift",
                    line: line
                )
            ]
        }
    }
#endif
