import Foundation
import RequestMocker
import RequestMockerServer

// The loopback server's rows: throughput against nginx serving the same bytes (all driven by
// `wrk -t2 -c16`, interleaved), and the peak memory of a server process streaming a 1 GiB file.
// `request-mocker serve` rows run the command itself, built beside this program.

#if canImport(Glibc)
    import Glibc

    /// Starts a program with its output in `outputPath` (or nowhere), through `posix_spawn`.
    ///
    /// Not `Process`: in this benchmark `Process.waitUntilExit()` never saw nginx's launcher exit
    /// (it stayed a zombie and the run hung), so children are started and reaped with the system
    /// calls themselves, with the signal mask and dispositions reset.
    func spawn(_ arguments: [String], output outputPath: String? = nil) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Dispatch's threads block most signals, and a child inherits the mask: without this, the
        // server child ignores SIGTERM and nginx ignores its own stop signal.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ) == 0 else { return nil }
        return pid
    }
#else
    /// The server rows are measured on Linux only (wrk, nginx and /proc); elsewhere they are skipped.
    func spawn(_ arguments: [String], output outputPath: String? = nil) -> pid_t? { nil }
#endif

/// Waits for a child and returns its exit status.
func reap(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    return (status >> 8) & 0xFF
}

/// Runs a program to the end and returns its status and what it printed.
func runToEnd(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("rm-bench-\(UUID().uuidString).out")
    defer { try? FileManager.default.removeItem(at: output) }
    guard let pid = spawn([executable] + arguments, output: output.path) else { return (-1, "") }
    let status = reap(pid)
    return (status, String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self))
}

func installed(_ program: String) -> Bool {
    runToEnd("sh", ["-c", "command -v \(program)"]).status == 0
}

/// `wrk`'s "Requests/sec" for `url`.
func wrk(_ url: String, seconds: Int) -> Double? {
    wrkFigures(runToEnd("wrk", ["-t2", "-c16", "-d\(seconds)s", url]).output)?.rate
}

/// What wrk printed: requests a second, requests made, and answers that weren't 2xx or 3xx.
func wrkFigures(_ output: String) -> (rate: Double, requests: Int, failed: Int)? {
    let lines = output.split(separator: "\n")
    guard let line = lines.first(where: { $0.hasPrefix("Requests/sec:") }),
        let rate = Double(line.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces))
    else { return nil }
    let requests = lines.first { $0.contains(" requests in ") }.flatMap {
        Int($0.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
    }
    let failed = lines.first { $0.contains("Non-2xx or 3xx responses:") }.flatMap {
        Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "")
    }
    return (rate, requests ?? 0, failed ?? 0)
}

/// A free loopback port, found by letting a server take one and stopping it.
func freePort() throws -> Int {
    let probe = MockServer()
    let url = try probe.start()
    probe.stop()
    return url.port ?? 18_081
}

struct ThroughputResult {
    let nginx: Double
    let mock: Double
    /// `request-mocker serve` of a mock-data folder, with its log line on; `nil` when the command
    /// could not be started.
    let command: Double?
}

/// The `request-mocker` executable built beside this program.
var commandExecutable: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
        .appendingPathComponent("request-mocker").path
}

/// nginx serving `folder`/www on one port and, on another, proxying to that one over kept
/// connections (as a reverse proxy in front of a development server would).
struct Nginx {
    let port: Int
    let proxyPort: Int
    private let configurationFile: URL
    private let folder: URL

    init?(folder: URL) throws {
        self.folder = folder
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("logs"), withIntermediateDirectories: true)
        port = try freePort()
        proxyPort = try freePort()
        let configuration = """
            worker_processes auto;
            daemon on;
            pid \(folder.path)/nginx.pid;
            error_log \(folder.path)/logs/error.log;
            events { worker_connections 1024; }
            http {
              access_log off;
              default_type text/plain;
              keepalive_requests 1000000;
              upstream origin { server 127.0.0.1:\(port); keepalive 32; }
              server {
                listen 127.0.0.1:\(port); root \(folder.path)/www;
                location /pets/ { default_type application/json; }
              }
              server {
                listen 127.0.0.1:\(proxyPort);
                location / { proxy_pass http://origin; proxy_http_version 1.1; proxy_set_header Connection ""; }
              }
            }
            """
        configurationFile = folder.appendingPathComponent("nginx.conf")
        try Data(configuration.utf8).write(to: configurationFile)
        guard runToEnd("nginx", ["-c", configurationFile.path, "-p", folder.path]).status == 0 else { return nil }
    }

    /// Stops nginx and waits (up to 5 s) until its master has exited: `-s stop` only signals
    /// it, and removing the folder while it still wrote its last lines left the folder behind.
    func stop() {
        let pidFile = folder.appendingPathComponent("nginx.pid")
        let pid = (try? String(contentsOf: pidFile, encoding: .utf8)).flatMap {
            pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        _ = runToEnd("nginx", ["-c", configurationFile.path, "-p", folder.path, "-s", "stop"])
        guard let pid else { return }
        for _ in 0..<500 where kill(pid, 0) == 0 { Thread.sleep(forTimeInterval: 0.01) }
    }
}

/// Starts `request-mocker serve ARGUMENTS --port 0` with its output in `log`, and returns its
/// process and base URL once it announced it.
func startCommand(_ arguments: [String], log: URL) -> (pid: pid_t, base: String)? {
    guard let child = spawn([commandExecutable, "serve"] + arguments + ["--port", "0"], output: log.path) else {
        return nil
    }
    for _ in 0..<1_000 {
        let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
        // The address served at (an upstream's may come first on the line).
        if let range = text.range(of: #" at http://127\.0\.0\.1:\d+"#, options: .regularExpression) {
            return (child, String(text[range].dropFirst(" at ".count)))
        }
        Thread.sleep(forTimeInterval: 0.01)
    }
    kill(child, SIGTERM)
    _ = reap(child)
    return nil
}

/// Stops the commands `startCommand` started (those that did) and waits for their ends.
func stopCommands(_ pids: [pid_t?]) {
    for pid in pids.compactMap(\.self) {
        kill(pid, SIGTERM)
        _ = reap(pid)
    }
}

/// Both servers answer 13 bytes; rounds alternate so load on the machine hits both alike.
func serverThroughput(rounds: Int, seconds: Int) throws -> ThroughputResult? {
    guard installed("wrk"), installed("nginx") else { return nil }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-bench-nginx-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("www"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("logs"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let body = "Hello, world!"
    try Data(body.utf8).write(to: folder.appendingPathComponent("www/hello"))
    guard let nginx = try Nginx(folder: folder) else { return nil }
    defer { nginx.stop() }
    let port = nginx.port

    let registry = MockRegistry()
    registry.journalCapacity = 1_000
    registry.register(.get("/hello"), respond: .string(body))
    let server = MockServer(registry: registry)
    let base = try server.start()
    defer { server.stop() }

    // The command serves the same 13 bytes from a mock-data file, logging each request.
    let mockData = folder.appendingPathComponent("MockData")
    try FileManager.default.createDirectory(at: mockData, withIntermediateDirectories: true)
    try Data("HTTP/1.1 200 OK\nContent-Type: text/plain\n\n\(body)".utf8).write(
        to: mockData.appendingPathComponent("GET|-hello.http"))
    let command = startCommand([mockData.path], log: folder.appendingPathComponent("logs/command.log"))
    defer {
        if let command {
            kill(command.pid, SIGTERM)
            _ = reap(command.pid)
        }
    }

    let urls = ["http://127.0.0.1:\(port)/hello", base.absoluteString + "/hello", command.map { $0.base + "/hello" }]
    var results: [[Double]] = [[], [], []]
    for url in urls.compactMap(\.self) { _ = wrk(url, seconds: 1) }
    for _ in 0..<rounds {
        for (index, url) in urls.enumerated() {
            if let url, let value = wrk(url, seconds: seconds) { results[index].append(value) }
        }
    }
    func median(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.sorted()[values.count / 2] }
    guard let nginx = median(results[0]), let mock = median(results[1]) else { return nil }
    return ThroughputResult(nginx: nginx, mock: mock, command: median(results[2]))
}

/// The peak resident memory, in MiB, of a process that serves a 1 GiB file response to `curl`,
/// before and after the download; `nil` without `curl` or `/proc`.
func fileStreamingMemory() throws -> (idle: Double, peak: Double, seconds: Double)? {
    guard installed("curl"), FileManager.default.fileExists(atPath: "/proc/self/status") else { return nil }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-bench-file-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("gigabyte.bin")
    _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    let handle = try FileHandle(forWritingTo: file)
    try handle.truncate(atOffset: 1 << 30)  // sparse: reads as zeros without touching the disk
    try handle.close()

    let log = folder.appendingPathComponent("server.log")
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    guard let child = spawn([executable, "--serve-file", file.path], output: log.path) else { return nil }
    defer {
        kill(child, SIGTERM)
        _ = reap(child)
    }
    var port: String?
    for _ in 0..<500 where port == nil {
        let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
        port = text.split(separator: "\n").first.map(String.init)
        if port == nil { Thread.sleep(forTimeInterval: 0.01) }
    }
    guard let port else { return nil }
    let idle = peakResidentMiB(of: child)
    let start = Date()
    let download = runToEnd(
        "curl", ["-s", "-o", "/dev/null", "-w", "%{size_download}", "http://127.0.0.1:\(port)/gigabyte"])
    let elapsed = Date().timeIntervalSince(start)
    guard download.output == String(1 << 30) else { return nil }
    return (idle, peakResidentMiB(of: child), elapsed)
}

/// The peak resident memory, in MiB, of `request-mocker serve` sending a 1 GiB `.http` mock-data
/// file to `curl`; `nil` without `curl`, `/proc` or the command.
func commandStreamingMemory() throws -> (peak: Double, seconds: Double)? {
    guard installed("curl"), FileManager.default.fileExists(atPath: "/proc/self/status") else { return nil }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-bench-http-\(UUID().uuidString)")
    let mockData = folder.appendingPathComponent("MockData")
    try FileManager.default.createDirectory(at: mockData, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = mockData.appendingPathComponent("GET|-gigabyte.http")
    let head = Data("HTTP/1.1 200 OK\nContent-Type: application/octet-stream\n\n".utf8)
    try head.write(to: file)
    let handle = try FileHandle(forWritingTo: file)
    try handle.truncate(atOffset: UInt64(head.count) + (1 << 30))  // sparse: zeros without the disk
    try handle.close()
    guard let command = startCommand([mockData.path], log: folder.appendingPathComponent("command.log")) else {
        return nil
    }
    defer {
        kill(command.pid, SIGTERM)
        _ = reap(command.pid)
    }
    let start = Date()
    let download = runToEnd("curl", ["-s", "-o", "/dev/null", "-w", "%{size_download}", command.base + "/gigabyte"])
    let elapsed = Date().timeIntervalSince(start)
    guard download.output == String(1 << 30) else { return nil }
    return (peakResidentMiB(of: command.pid), elapsed)
}

/// `VmHWM` (the peak resident set) from `/proc/<pid>/status`, in MiB.
func peakResidentMiB(of pid: Int32) -> Double {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return -1 }
    let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    return kilobytes / 1024
}

/// `request-mocker-bench --serve-file PATH`: the child process of ``fileStreamingMemory()``.
func serveFileAndWait(_ path: String) -> Never {
    let registry = MockRegistry()
    registry.register(.get("/gigabyte"), respond: .file(URL(fileURLWithPath: path)))
    let server = MockServer(registry: registry)
    guard let base = try? server.start() else { exit(1) }
    FileHandle.standardOutput.write(Data("\(base.port ?? 0)\n".utf8))
    while true { Thread.sleep(forTimeInterval: 3600) }
}

/// Prints the server's rows of the table.
func printServerRows(rounds: Int) throws {
    print("")
    print("loopback server (wrk -t2 -c16, one 13-byte stub, \(rounds) interleaved rounds of 5 s, median):")
    if let throughput = try serverThroughput(rounds: rounds, seconds: 5) {
        let share = throughput.mock / throughput.nginx
        print(
            String(
                format: "  nginx %.0f req/s, MockServer %.0f req/s: %.2f of nginx  ", throughput.nginx, throughput.mock,
                share)
                + (share >= 0.5 ? "ok (goal ≥ 0.5)" : "UNDER GOAL (≥ 0.5)"))
        if let command = throughput.command {
            let share = command / throughput.nginx
            print(
                String(
                    format: "  request-mocker serve, mock-data file, log on: %.0f req/s: %.2f of nginx  ", command,
                    share)
                    + (share >= 0.5 ? "ok (budget ≥ 0.5)" : "UNDER BUDGET (≥ 0.5)"))
        } else {
            print("  request-mocker serve: skipped (the command did not start)")
        }
    } else {
        print("  skipped: needs wrk and nginx (apt-get install wrk nginx)")
    }
    if let memory = try fileStreamingMemory() {
        print(
            String(
                format: "  1 GiB file response to curl: peak resident %.1f MiB (%.1f MiB idle), %.1f s  ", memory.peak,
                memory.idle, memory.seconds)
                + (memory.peak < 64 ? "ok (budget < 64 MiB)" : "OVER BUDGET (< 64 MiB)"))
    } else {
        print("  1 GiB file response: skipped (needs curl and /proc)")
    }
    if let memory = try commandStreamingMemory() {
        print(
            String(
                format: "  1 GiB .http file through request-mocker serve: peak resident %.1f MiB, %.1f s  ",
                memory.peak, memory.seconds) + (memory.peak < 64 ? "ok (budget < 64 MiB)" : "OVER BUDGET (< 64 MiB)"))
    } else {
        print("  1 GiB .http file through request-mocker serve: skipped (needs curl, /proc and the command)")
    }
    try printDevServerRows(rounds: rounds)
    try printUpstreamFirstRow(rounds: rounds)
    try printDashboardRow(rounds: rounds)
    try printStatefulServeRow(rounds: rounds)
    try printStreamingRows()
}
