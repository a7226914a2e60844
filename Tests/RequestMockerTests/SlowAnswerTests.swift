import Dispatch
import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// An answer that takes time is made off URL loading's queue, which every session in the
/// process shares: the witnesses here are blocks parked on a semaphore the test releases, never
/// a clock.
@Suite("Slow answers hold up no other session", .timeLimit(.minutes(3)), .hangGuard)
struct SlowAnswerTests {
    /// A synchronous block that waits, on its own thread, until the test lets it go, and says
    /// when it started and when it returned.
    final class ParkedBlock: Sendable {
        let started = Gate()
        private let release = DispatchSemaphore(value: 0)
        private let counts = LockedState((runs: 0, returned: 0))

        var runs: Int { counts.withLock { $0.runs } }
        var returned: Int { counts.withLock { $0.returned } }

        func respond(_ body: String) -> MockResponse {
            .block { [self] _, _ in
                counts.withLock { $0.runs += 1 }
                started.open()
                release.wait()
                counts.withLock { $0.returned += 1 }
                return .string(body)
            }
        }

        func letGo() { release.signal() }
    }

    @Test("a light request in another session is answered while a synchronous block is still running")
    func lightBesideHeavy() async throws {
        let heavyRegistry = MockRegistry()
        let lightRegistry = MockRegistry()
        let parked = ParkedBlock()
        heavyRegistry.register(.get("/heavy"), respond: parked.respond("heavy"))
        lightRegistry.register(.get("/light"), respond: .string("light"))
        let heavySession = heavyRegistry.makeSession()
        let lightSession = lightRegistry.makeSession()
        defer { parked.letGo() }

        let heavy = Task { try await heavySession.data(from: url("/heavy")) }
        await parked.started.wait()
        for _ in 0..<3 {
            let (data, _) = try await lightSession.data(from: url("/light"))
            #expect(data == Data("light".utf8))
        }
        // The witness: the block has not returned, since the test has not let it go yet.
        #expect(parked.returned == 0)
        parked.letGo()
        #expect(try await heavy.value.0 == Data("heavy".utf8))
        #expect(parked.runs == 1)
        let completed = try await heavyRegistry.waitForCompletedRequests(count: 1)
        #expect(completed.map(\.completion) == [.delivered])
    }

    @Test("requests of the same session are answered beside a running block too")
    func sameSession() async throws {
        let registry = MockRegistry()
        let parked = ParkedBlock()
        registry.register(.get("/heavy"), respond: parked.respond("heavy"))
        registry.register(.get("/light"), respond: .string("light"))
        let session = registry.makeSession()
        defer { parked.letGo() }

        let heavy = Task { try await session.data(from: url("/heavy")) }
        await parked.started.wait()
        #expect(try await session.data(from: url("/light")).0 == Data("light".utf8))
        #expect(parked.returned == 0)
        parked.letGo()
        #expect(try await heavy.value.0 == Data("heavy".utf8))
        // Journaled in the order they arrived, the heavy one first.
        #expect(registry.journal.map(\.request.url.path) == ["/heavy", "/light"])
    }

    @Test("the request's timeout ends a synchronous block's wait; what the block returns later goes nowhere")
    func timeoutEndsBlock() async throws {
        let registry = MockRegistry()
        let parked = ParkedBlock()
        registry.register(.get("/heavy"), respond: parked.respond("heavy"))
        let session = registry.makeSession()
        defer { parked.letGo() }
        var request = URLRequest(url: url("/heavy"))
        request.timeoutInterval = 0.5

        await #expect {
            _ = try await session.data(for: request)
        } throws: { error in
            (error as? URLError)?.code == .timedOut
        }
        await parked.started.wait()
        #expect(parked.runs == 1)
        #expect(parked.returned == 0)
        let completed = try await registry.waitForCompletedRequests(count: 1)
        #expect(completed.map(\.completion) == [.failed(URLError(.timedOut).reason)])
    }

    @Test("a task suspended and resumed while its block runs gets that block's answer: the block runs once")
    func suspendResume() async throws {
        let registry = MockRegistry()
        let parked = ParkedBlock()
        registry.register(.get("/heavy"), respond: parked.respond("heavy"))
        let session = registry.makeSession()
        defer { parked.letGo() }

        let delivered = Gate()
        let result = LockedState<Data?>(nil)
        let task = session.dataTask(with: url("/heavy")) { data, _, _ in
            result.withLock { $0 = data }
            delivered.open()
        }
        task.resume()
        await parked.started.wait()
        task.suspend()
        task.resume()
        // The witness that the stop and the second start ran before the block is let go: URL
        // loading runs a session's starts and stops on one serial queue, in order, so a request
        // of the same session that comes back after them was started after them.
        registry.register(.get("/light"), respond: .string("light"))
        #expect(try await session.data(from: url("/light")).0 == Data("light".utf8))
        parked.letGo()
        await delivered.wait()
        #expect(result.withLock { $0 } == Data("heavy".utf8))
        #expect(parked.runs == 1)
        #expect(registry.journal.map(\.request.url.path) == ["/heavy", "/light"])
    }

    @Test("a block that returns a block runs each once, off the queue, and a redirect it returns is followed")
    func nestedBlocksAndRedirects() async throws {
        let registry = MockRegistry()
        let parked = ParkedBlock()
        let outerRuns = LockedState(0)
        registry.register(
            .get("/outer"),
            respond: .block { _, _ in
                outerRuns.withLock { $0 += 1 }
                return parked.respond("inner")
            })
        registry.register(.get("/moved"), respond: .block { _, _ in .redirect(to: "/target") })
        registry.register(.get("/target"), respond: .string("target"))
        let session = registry.makeSession()
        defer { parked.letGo() }

        let outer = Task { try await session.data(from: url("/outer")) }
        await parked.started.wait()
        #expect(try await session.data(from: url("/moved")).0 == Data("target".utf8))
        #expect(parked.returned == 0)
        parked.letGo()
        #expect(try await outer.value.0 == Data("inner".utf8))
        #expect(outerRuns.withLock { $0 } == 1)
        #expect(parked.runs == 1)
        #expect(registry.journal.map(\.request.url.path) == ["/outer", "/moved", "/target"])
    }

    @Test(
        "a mock-data file not read yet answers, the next request too, and one that can't be read fails with its reason")
    func folderFiles() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("GET|-pets.json", #"{"name":"Rex"}"#)
        _ = try folder.write("GET|-broken.json", "not json")
        let registry = MockRegistry()
        registry.register(try MockDataFolder(folder.url))
        let session = registry.makeSession()

        // The first is read off the queue; the second too while the file counts as just written.
        for _ in 0..<2 {
            #expect(try await session.data(from: url("/pets")).0 == Data(#"{"name":"Rex"}"#.utf8))
        }
        await #expect {
            _ = try await session.data(from: url("/broken"))
        } throws: { error in
            guard case .invalidMockDataFile(let path, _) = error as? RequestMockerError else { return false }
            return path.hasSuffix("/GET|-broken.json")
        }
        let entries = try await registry.waitForCompletedRequests(count: 3)
        #expect(entries.map { $0.file?.lastPathComponent } == ["GET|-pets.json", "GET|-pets.json", "GET|-broken.json"])
        #expect(entries.last?.completion.map { if case .failed = $0 { true } else { false } } == true)
    }
}

private func url(_ path: String) -> URL {
    URL(string: "https://slow.test" + path)!
}

@Suite("Threads for slow answers", .timeLimit(.minutes(3)), .hangGuard)
struct BoundedThreadsTests {
    @Test("at most the limit run at once; the next work runs on the first thread that finishes, in order")
    func bounded() async throws {
        let threads = BoundedThreads(limit: 2)
        let releases = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        defer { for release in releases { release.signal() } }
        let bothStarted = Gate()
        let started = LockedState(0)
        for release in releases {
            threads.start {
                if started.withLock({ count in
                    count += 1
                    return count
                }) == 2 {
                    bothStarted.open()
                }
                release.wait()
            }
        }
        await bothStarted.wait()
        // Two more wait their turn: each sees whether the first was let go when it ran.
        let firstLetGo = LockedState(false)
        let seen = LockedState<[String]>([])
        let bothRan = Gate()
        for name in ["third", "fourth"] {
            threads.start {
                let count = seen.withLock { seen in
                    seen.append("\(name) after the first was let go: \(firstLetGo.withLock { $0 })")
                    return seen.count
                }
                if count == 2 { bothRan.open() }
            }
        }
        firstLetGo.withLock { $0 = true }
        releases[0].signal()
        await bothRan.wait()
        #expect(
            seen.withLock { $0 } == [
                "third after the first was let go: true", "fourth after the first was let go: true",
            ])
    }

    /// A synchronous block's answer, and a chain of redirects its blocks return, are settled on
    /// the threads that make them: no turn of Swift's cooperative pool is needed, so a pool busy
    /// with other tests' work (on Linux it has as many threads as cores) doesn't hold them up.
    /// The witness: every thread of the pool is parked on a semaphore while the request is made
    /// through a completion handler, and the answer still arrives.
    @Test(
        "a synchronous block's answer and its redirects arrive while every cooperative thread is busy",
        .ownThread)
    func answersWithoutTheCooperativePool() async throws {
        let registry = MockRegistry()
        registry.register(.get("/hop/<n>")) { _, captures in
            let n = captures.int("n") ?? 0
            return n < 3 ? .redirect(to: "/hop/\(n + 1)") : .string("after \(n) hops")
        }
        let session = registry.makeSession()
        let width = ProcessInfo.processInfo.activeProcessorCount
        let release = DispatchSemaphore(value: 0)
        let parked = DispatchSemaphore(value: 0)
        for _ in 0..<width {
            Task.detached { Self.park(saying: parked, until: release) }
        }
        // Every thread of the pool is parked once each task has started (waited for on this
        // test's own thread; bounded, as the pool may first finish other tests' work).
        let started = Self.count(parked, upTo: width)
        let answered = DispatchSemaphore(value: 0)
        let body = LockedState<String?>(nil)
        session.dataTask(with: url("/hop/0")) { data, _, _ in
            body.withLock { $0 = data.map { String(decoding: $0, as: UTF8.self) } }
            answered.signal()
        }.resume()
        let arrived = Self.count(answered, upTo: 1) == 1
        for _ in 0..<width { release.signal() }
        #expect(started == width)
        #expect(arrived)
        #expect(body.withLock { $0 } == "after 3 hops")
    }

    /// Signals `started`, then blocks the calling thread until `release` is signalled.
    private static func park(saying started: DispatchSemaphore, until release: DispatchSemaphore) {
        started.signal()
        release.wait()
    }

    /// How many of `count` signals of `semaphore` arrive, each waited for at most a minute.
    private static func count(_ semaphore: DispatchSemaphore, upTo count: Int) -> Int {
        (0..<count).filter { _ in semaphore.wait(timeout: .now() + 60) == .success }.count
    }
}
