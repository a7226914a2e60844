import Foundation
import RequestMocker
import RequestMockerServer

/// Files the file-reading targets write their input to, each under a new name (so no cache
/// answers for an earlier input), in a folder of the fuzzing process's own.
final class FuzzFiles: Sendable {
    static let shared = FuzzFiles()

    private let root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "request-mocker-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
    private let counter = LockedCounter()

    private init() {
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func removeAll() {
        try? FileManager.default.removeItem(at: root)
    }

    /// Writes `input` as a `.http` file or a cassette, and answers a request from it.
    func answer(_ input: Data, as name: String) {
        let folder = root.appendingPathComponent("\(counter.next())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        guard (try? input.write(to: file)) != nil else { return }
        let registry = MockRegistry()
        if name.hasSuffix(".har") || name.hasSuffix(".tape.json") || name.hasSuffix(".plist") {
            guard let cassette = try? Cassette(contentsOf: file, record: .none) else { return }
            registry.register(cassette)
        } else {
            guard let mockData = try? MockDataFolder(folder) else { return }
            registry.register(mockData)
        }
        let request = MockRequest(method: .get, url: URL(fileURLWithPath: "/x").absoluteURL)
        let target = MockRequest(method: .get, url: URL(string: "https://api.test/x?a=1") ?? request.url)
        for asked in [request, target] {
            if case .ready(let outcome) = registry.answer(asked, forwarding: Forwarding(timeout: 1)).outcome,
                case .response(let response) = outcome.result
            {
                _ = try? response.body.data()
            }
        }
    }

    func loadScript(_ input: Data) {
        let file = root.appendingPathComponent("\(counter.next()).json")
        guard (try? input.write(to: file)) != nil else { return }
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try? ScriptedServer.Script(contentsOf: file)
    }
}

/// A counter several threads may take numbers from.
final class LockedCounter: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
