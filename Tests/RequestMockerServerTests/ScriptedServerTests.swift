import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

@Suite(.timeLimit(.minutes(3)), .hangGuard) struct ScriptedServerTests {
    static func fixture(_ name: String) throws -> URL {
        try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    }

    @Test func curlDownloadsAFileOverScriptedPassiveFTP() async throws {
        let server = ScriptedServer(script: try .init(contentsOf: Self.fixture("ftp.json")))
        let port = try server.start()
        defer { server.stop() }
        let result = try await ExternalProcess.curl(["ftp://127.0.0.1:\(port)/pub/hello.txt"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "Hello from a scripted FTP server.\n")
        let said = server.transcript
        #expect(said.contains { $0.kind == .input("USER anonymous") })
        #expect(said.contains { $0.kind == .input("PASV") })
        #expect(said.contains { $0.kind == .input("RETR hello.txt") })
        let dataPort = server.dataPort
        #expect(
            said.contains {
                $0.outputText == "227 Entering Passive Mode (127,0,0,1,\(dataPort / 256),\(dataPort % 256))\r\n"
            })
        #expect(said.contains { $0.outputText == "150 Opening BINARY connection for hello.txt (34 bytes)\r\n" })
        #expect(said.contains { $0.kind == .event("data connection opened") })
    }

    /// A response that stops halfway and never finishes: URLSession gives up with its timeout.
    @Test func urlSessionTimesOutOnAResponseThatHangsMidBody() async throws {
        let server = ScriptedServer(
            script: try .init(
                rules: [
                    .init(
                        "^GET /hang ",
                        [.text("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhalf of it"), .pause(.seconds(3_600))])
                ],
                framing: .delimiter("\r\n\r\n")
            ))
        try server.start()
        defer { server.stop() }
        var request = URLRequest(url: try #require(server.url(path: "/hang")))
        request.timeoutInterval = 1
        let code = try await urlErrorCode { _ = try await plainSession().data(for: request) }
        #expect(code == .timedOut)
    }

    /// A response whose connection drops mid-body: the error FoundationNetworking reports for
    /// it (measured on Linux; see `MeasuredFaultCode`) is what `MockResponse.truncated(afterBytes:)`
    /// gives through the URL protocol.
    @Test func urlSessionReportsADisconnectMidBody() async throws {
        let server = ScriptedServer(
            script: try .init(
                rules: [
                    .init("^GET /drop ", [.text("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhalf of it"), .close])
                ],
                framing: .delimiter("\r\n\r\n")
            ))
        try server.start()
        defer { server.stop() }
        let url = try #require(server.url(path: "/drop"))
        let code = try await urlErrorCode { _ = try await plainSession().data(from: url) }
        #expect(isMeasuredFailure(code, MeasuredFaultCode.truncatedBody), "\(String(describing: code))")
        #expect(server.transcript.last?.kind == .event("closed by the script"))
    }

    @Test func substitutionsAndTranscript() async throws {
        let server = ScriptedServer(
            script: try .init(
                greeting: [.text("hello $address:$port\n")],
                rules: [
                    .init("^say (\\w+) (\\w+)?$", [.text("[$1|$2|$12|$3|$$|$nope|$0]\n")]),
                    .init("^size$", [.text("$size bytes\n"), .sendData, .text("\n")]),
                    .init("^date$", [.text("$date\n")]),
                    .init("^bye$", [.bytes(Data([0x62, 0x79, 0x65, 0x0A])), .close]),
                ],
                data: Data("DATA".utf8)
            ))
        let port = try server.start()
        defer { server.stop() }
        let reply = try await RawClient.exchange(port: port, ["say a b\r\n", "size\n", "date\n", "bye\n"], pause: 0.05)
        var lines = reply.response.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.removeFirst() == "hello 127.0.0.1:\(port)")
        #expect(lines.removeFirst() == "[a|b|a2||$|$nope|say a b]")
        #expect(lines.removeFirst() == "4 bytes")
        #expect(lines.removeFirst() == "DATA")
        let date = lines.removeFirst()
        #expect(
            date.range(
                of: #"^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$"#, options: .regularExpression)
                != nil)
        #expect(lines == ["bye", ""])
        #expect(reply.ending == "closed")
        #expect(
            server.transcript.map(\.description).prefix(4) == [
                "#1 * connected",
                "#1 > \"hello 127.0.0.1:\(port)\\n\"",
                "#1 < \"say a b\"",
                "#1 > \"[a|b|a2||$|$nope|say a b]\\n\"",
            ])
    }

    @Test func theTranscriptKeepsItsNewestEntriesWithinItsCapacity() async throws {
        let server = ScriptedServer(script: try .init(rules: [.init("^end$", [.close]), .any([])]))
        #expect(server.transcriptCapacity == 10_000)
        server.transcriptCapacity = 5
        let port = try server.start()
        defer { server.stop() }
        // 2-byte lines: before, every one stayed in the transcript for the server's whole life.
        let lines = (0..<2_000).map { "\($0 % 10)\n" }.joined() + "end\n"
        let reply = try await RawClient.exchange(port: port, [lines])
        #expect(reply.ending == "closed")
        #expect(
            server.transcript.map(\.kind) == [
                .input("7"), .input("8"), .input("9"), .input("end"), .event("closed by the script"),
            ])
        // Connected, 2,001 lines and the close: 2,003 entries, 5 kept.
        #expect(server.droppedTranscriptEntries == 1_998)
    }

    @Test func unmatchedInputClosesTheConnectionUnlessACatchAllAnswers() async throws {
        let strict = ScriptedServer(script: try .init(rules: [.init("^ping$", [.text("pong\n")])]))
        let port = try strict.start()
        defer { strict.stop() }
        let reply = try await RawClient.exchange(port: port, ["ping\n", "what\n", "ping\n"], pause: 0.05)
        #expect(reply.response == "pong\n")
        #expect(reply.ending == "closed")
        #expect(strict.transcript.last?.kind == .event("no rule matched, so the connection was closed"))

        // The catch-all answers what no rule matches, and the connection stays open for what
        // follows, until `bye` closes it.
        let lenient = ScriptedServer(
            script: try .init(rules: [
                .init("^ping$", [.text("pong\n")]), .init("^bye$", [.close]), .any([.text("500 unknown\n")]),
            ]))
        let lenientPort = try lenient.start()
        defer { lenient.stop() }
        let answered = try await RawClient.exchange(
            port: lenientPort, ["ping\n", "what\n", "ping\n", "bye\n"], pause: 0.05)
        #expect(answered.response == "pong\n500 unknown\npong\n")
        #expect(answered.ending == "closed")
        #expect(lenient.transcript.last?.kind == .event("closed by the script"))
    }

    @Test func perReadFramingAndSwappingTheScript() async throws {
        // Each script closes after its answer, so the client reads until then.
        let server = ScriptedServer(
            script: try .init(rules: [.init("^one", [.text("first script\n"), .close])], framing: .reads))
        let port = try server.start()
        defer { server.stop() }
        let first = try await RawClient.exchange(port: port, ["one two\n"])
        #expect(first.response == "first script\n")
        server.script = try .init(rules: [.init("^one", [.text("second script\n"), .close])], framing: .reads)
        let second = try await RawClient.exchange(port: port, ["one two\n"])
        #expect(second.response == "second script\n")
        #expect(server.transcript.contains { $0.kind == .input("one two\n") })
    }

    @Test func pausesDelayTheNextCommand() async throws {
        let server = ScriptedServer(
            script: try .init(rules: [
                .init("^go$", [.text("a\n"), .pause(.milliseconds(300)), .text("b\n"), .close])
            ]))
        let port = try server.start()
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        let reply = try await RawClient.exchange(port: port, ["go\n"])
        #expect(reply.response == "a\nb\n")
        #expect(clock.now - start >= .milliseconds(300))
    }

    @Test func invalidPatternAndScriptFilesAreTypedErrors() throws {
        #expect {
            try ScriptedServer.Rule("(unclosed", [])
        } throws: { error in
            guard case .invalidPattern(let pattern, let reason) = error as? MockServerError else { return false }
            return pattern == "(unclosed" && reason.hasPrefix("check for unbalanced parentheses")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.json")
        try Data(
            #"{"rules": [{"pattern": "^A", "commands": ["ok\r\n"]}, {"pattern": "^B", "commands": [{"wait": 1}]}]}"#
                .utf8
        ).write(to: file)
        #expect {
            try ScriptedServer.Script(contentsOf: file)
        } throws: { error in
            guard case .invalidScript(let path, let location, _) = error as? MockServerError else { return false }
            return path == file.path && location == "rules[1].commands[0]"
        }
        try Data(#"{"rules": [}"#.utf8).write(to: file)
        #expect {
            try ScriptedServer.Script(contentsOf: file)
        } throws: { error in
            guard case .invalidScript(_, let location, _) = error as? MockServerError else { return false }
            return location == "byte 11"
        }
        #expect {
            try ScriptedServer.Script(contentsOf: folder.appendingPathComponent("missing.json"))
        } throws: { error in
            if case .scriptNotReadable = error as? MockServerError { true } else { false }
        }
    }
}
