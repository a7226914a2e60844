import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// The helper the server tests use to wait for what an outside client does.
@Suite("BackgroundClient", .timeLimit(.minutes(3)), .hangGuard)
struct BackgroundClientTests {
    @Test("a client that ends before the awaited event fails the wait at once, with what it printed")
    func endsFirst() async throws {
        let client = BackgroundClient {
            try await ExternalProcess.python("import sys\nprint('no server')\nsys.exit(3)", timeout: .seconds(60))
        }
        defer { client.cancel() }
        // Never true: only the client's end can finish this wait, long before the 240 s bound.
        let error = await #expect(throws: ClientEnded.self) {
            try await client.waitUntil(waitingFor: "an event that never comes") { false }
        }
        #expect(error?.description == "the client ended before an event that never comes (status 3: no server\n)")
    }

    @Test("the wait ends on the event while the client still runs")
    func eventFirst() async throws {
        let folder = try TemporaryFolder()
        let marker = folder.url.appendingPathComponent("marker")
        let client = BackgroundClient {
            try await ExternalProcess.python(
                """
                import os, sys, time
                open(sys.argv[1], "w").close()
                waited = 0
                while not os.path.exists(sys.argv[1] + ".done") and waited < 60:
                    time.sleep(0.02)
                    waited += 0.02
                print("done")
                """, [marker.path], timeout: .seconds(90))
        }
        defer { client.cancel() }
        try await client.waitUntil(waitingFor: "the marker") { FileManager.default.fileExists(atPath: marker.path) }
        _ = FileManager.default.createFile(atPath: marker.path + ".done", contents: nil)
        let result = try await client.result
        #expect(result.status == 0)
        #expect(result.output == "done\n")
    }
}
