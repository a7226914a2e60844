import Dispatch
import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// The order in which requests ended. Two timeouts are compared by which fires first, never by
/// a bound on either: on a busy machine FoundationNetworking's timers were seen to fire tens of
/// seconds late (33 s for a 1 s timeout, with the parallel suite and two busy loops on two cores).
actor Endings {
    private(set) var names: [String] = []

    func ended(_ name: String) {
        names.append(name)
    }

    /// Runs `body` and notes `name` when it ends, however it ends.
    nonisolated func noting<T: Sendable>(_ name: String, _ body: () async throws -> T) async throws -> T {
        do {
            let value = try await body()
            await ended(name)
            return value
        } catch {
            await ended(name)
            throw error
        }
    }
}

#if canImport(FoundationNetworking)
    /// How FoundationNetworking 6.3.1's HTTP loader takes a request's timeout, which decides how
    /// RequestMocker sets the timeout of the requests it forwards. Measured against a server that
    /// never answers.
    @Suite(.timeLimit(.minutes(3)), .hangGuard) struct FoundationNetworkingTimeoutTests {
        /// Only which timeout applies is pinned, against a session timeout of 60 s: the request
        /// with the initializer's 1.5 s is sent first, and the one with the property's 1.5 s,
        /// sent once the server has the first, ends first. (Run alone, a property of 0.5 s also
        /// timed out at once and 1.5 s after 1 s, as if cut to whole seconds; under load that did
        /// not hold, so it is not pinned.)
        @Test func theInitializersTimeoutIsIgnoredAndAPropertysApplies() async throws {
            let registry = MockRegistry()
            registry.register(.get("/stall"), respond: .fault(.stall))
            try await withServer(registry) { _, base in
                let session = plainSession(timeout: 60)
                let url = base.appendingPathComponent("stall")
                var request = URLRequest(url: url)
                request.timeoutInterval = 1.5
                let endings = Endings()
                let clock = ContinuousClock()
                let start = clock.now

                let byInitializer = URLRequest(url: url, timeoutInterval: 1.5)
                async let initializer = endings.noting("initializer") {
                    try await urlErrorCode { _ = try await session.data(for: byInitializer) }
                }
                _ = try await registry.waitForRequests(count: 1, matching: .get("/stall"), timeout: .seconds(60))
                let code = try await endings.noting("property") {
                    try await urlErrorCode { _ = try await session.data(for: request) }
                }
                #expect(code == .timedOut)
                #expect(await endings.names == ["property"], "the request's 1.5 s apply, not the session's 60 s")
                #expect(try await initializer == .timedOut)
                #expect(start.duration(to: clock.now) >= .milliseconds(59_900), "the session's 60 s apply, not 1.5 s")
            }
        }
    }
#endif

/// The server's forwarding timeout reaches the forwarded request.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct ForwardingTimeoutTests {
    /// The forward (1 s) ends while a request sent straight to the same server before it, with a
    /// session timeout of 10 minutes, is still waiting; that one is then cancelled. (With 60 s it
    /// could time out before the cancel: under CI's load a forward's 1 s has been reported after
    /// more than 60 s.)
    @Test func aForwardToAServerThatNeverAnswersEndsAtTheForwardingTimeout() async throws {
        let upstreamRegistry = MockRegistry()
        upstreamRegistry.register(.get("/stall"), respond: .fault(.stall))
        let endings = Endings()
        try await withServer(upstreamRegistry) { _, upstream in
            let straight = Task {
                try await endings.noting("straight") {
                    try await urlErrorCode {
                        _ = try await plainSession(timeout: 600).data(from: upstream.appendingPathComponent("stall"))
                    }
                }
            }
            _ = try await upstreamRegistry.waitForRequests(count: 1, matching: .get("/stall"), timeout: .seconds(60))
            var configuration = MockServer.Configuration()
            configuration.forwardingTimeout = 1
            try await withServer(MockRegistry(unmatchedPolicy: .passThrough), configuration: configuration) { _, base in
                var request = URLRequest(url: base.appendingPathComponent("stall"))
                request.setValue("\(upstream.host ?? ""):\(upstream.port ?? 0)", forHTTPHeaderField: "Host")
                // Far longer than the forward may take: the answer, not this session, ends the request.
                let (data, response) = try await endings.noting("forward") {
                    try await plainSession(timeout: 120).data(for: request)
                }
                #expect(response.status == 502)
                #expect(
                    String(decoding: data, as: UTF8.self).contains(
                        "through to the network failed: the request timed out (URLError -1001)"))
            }
            #expect(await endings.names == ["forward"], "1 s, not the straight request's 10 minutes")
            straight.cancel()
            #expect(try await straight.value == .cancelled)
        }
    }
}

/// Mocked requests time out as the platform's HTTP loader times out the same task against a real
/// slow server: the session's `timeoutIntervalForRequest`, unless the request sets its own.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct SessionTimeoutParityTests {
    /// What one request ended as: a status, or a `URLError` code.
    static func outcome(_ request: URLRequest, in session: URLSession) async -> String {
        do {
            return "\(try await session.data(for: request).1.status)"
        } catch let error as URLError {
            return "\(error.code)"
        } catch {
            return "\(error)"
        }
    }

    static func configuration(timeout: TimeInterval) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        return configuration
    }

    // Before: the mocked request ignored the session's timeout and answered 200 after 5 s.
    @Test func theSessionsTimeoutAppliesUnlessTheRequestSetsOne() async throws {
        let registry = MockRegistry()
        // An hour: a timeout means the session's 0.5 s ended it. (How soon is not pinned: in the
        // parallel suite the real loader took 4-7 s to report it.)
        registry.register(.get("/slow"), respond: .string("late").delayed(by: .seconds(3_600)))
        let gates = ["real": Gate(), "mocked": Gate()]
        defer { for gate in gates.values { gate.open() } }
        for (name, gate) in gates {
            registry.register(.get("/patient-\(name)")) { _, _ in
                await gate.wait()
                return .string("on time")
            }
        }
        try await withServer(registry) { _, base in
            let real = URLSession(configuration: Self.configuration(timeout: 0.5))
            let mocked = registry.makeSession(configuration: Self.configuration(timeout: 0.5))
            for (name, session) in [("real", real), ("mocked", mocked)] {
                // The patient request, with a timeout of its own, is waiting before the slow one
                // starts, and answered only after the session's timeout ended the slow one: it
                // waited longer than the session's timeout, and wasn't ended by it.
                // (Not 60 s: a request's default, which counts as not set.)
                var patient = URLRequest(url: base.appendingPathComponent("patient-\(name)"))
                patient.timeoutInterval = 120
                async let patientOutcome = Self.outcome(patient, in: session)
                _ = try await registry.waitForRequests(
                    count: 1, matching: .get("/patient-\(name)"), timeout: .seconds(60))
                let slow = await Self.outcome(URLRequest(url: base.appendingPathComponent("slow")), in: session)
                #expect(slow == "\(URLError.Code.timedOut)", "\(name)")
                gates[name]?.open()
                let patientEnded = await patientOutcome
                #expect(patientEnded == "200", "\(name): the request's own 120 s apply")
            }
        }
    }

    @Test func synchronousAndAsyncBlocksBothTimeOut() async throws {
        let registry = MockRegistry()
        // Parked until the test has seen the timeout, so only the timeout can end it.
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        registry.register(
            .get("/sync"),
            respond: { _, _ in
                release.wait()
                return .string("late")
            })
        // An hour, so only the timeout can end it.
        registry.register(.get("/async")) { _, _ in
            try await Task.sleep(for: .seconds(3_600))
            return .string("late")
        }
        var request = URLRequest(url: URL(string: "http://timeouts.test/sync")!)
        request.timeoutInterval = 0.3
        // A synchronous block runs on a thread of its own, off URL loading's queue, so the
        // request's timeout ends its wait as it ends an `async` block's.
        #expect(await Self.outcome(request, in: registry.makeSession()) == "\(URLError.Code.timedOut)")
        request.url = URL(string: "http://timeouts.test/async")
        #expect(await Self.outcome(request, in: registry.makeSession()) == "\(URLError.Code.timedOut)")
    }
}
