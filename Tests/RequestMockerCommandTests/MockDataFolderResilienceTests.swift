import Foundation
import RequestMockerTestSupport
import Testing

/// `request-mocker serve` of a folder keeps answering from the folder when a request arrives while
/// the process has no file descriptor left.
@Suite struct MockDataFolderResilienceTests {
    /// Starts the command under a descriptor limit, then holds idle connections open one more at
    /// a time, changing the folder before each request so that it is listed again, until a request
    /// finds no descriptor for the listing or the file. Then it lets every connection go and asks
    /// once more.
    static let script = """
        import json, os, re, resource, socket, subprocess, sys, time
        exe, folder, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
        def lower():
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
        server = subprocess.Popen([exe, "serve", folder, "--port", "0"], stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, preexec_fn=lower, text=True)
        port = int(re.search(r"127\\.0\\.0\\.1:(\\d+)", server.stdout.readline()).group(1))
        def ask(idle):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /users HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n")
            s.settimeout(1)
            data = b""
            while True:
                try:
                    chunk = s.recv(65536)
                except socket.timeout:
                    if not idle:
                        break
                    idle.pop().close()  # not even accepted: free one descriptor
                    continue
                if not chunk:
                    break
                data += chunk
            s.close()
            return data.decode("latin-1")
        idle, statuses, refusal = [], [], ""
        for i in range(limit):
            open(os.path.join(folder, "changed-%d.txt" % i), "w").close()
            reply = ask(idle)
            statuses.append(reply[9:12])
            if reply[9:12] != "200":
                refusal = reply.split("\\r\\n\\r\\n", 1)[-1]
                break
            idle.append(socket.create_connection(("127.0.0.1", port)))
            time.sleep(0.05)
        for s in idle:
            s.close()
        time.sleep(0.3)
        after = ask([])[9:12]
        server.terminate()
        server.wait()
        print(json.dumps({"statuses": statuses, "refusal": refusal, "after": after}))
        """

    struct Outcome: Decodable {
        let statuses: [String]
        let refusal: String
        let after: String
    }

    @Test func runningOutOfDescriptorsIs503AndIsNotRemembered() async throws {
        let folder = try TemporaryFolder()
        try folder.write("GET|-users.json", #"[{"id": 1}]"#)
        let result = try await ExternalProcess.python(
            Self.script, [Command.executable.path, folder.url.path, "64"], timeout: .seconds(120))
        #expect(result.status == 0, "\(result.error)")
        let outcome = try JSONDecoder().decode(Outcome.self, from: Data(result.output.utf8))
        #expect(outcome.statuses.count > 1, "the first request already found no descriptor")
        #expect(outcome.statuses.dropLast().allSatisfy { $0 == "200" }, "\(outcome.statuses)")
        #expect(outcome.statuses.last == "503", "\(outcome.statuses)")
        #expect(outcome.refusal.contains("could not be read just now: Too many open files"), "\(outcome.refusal)")
        #expect(outcome.after == "200", "a failed listing was remembered")
    }
}
