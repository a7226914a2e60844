// The proof that per-test registries don't leak: fifty tests that run at the same time, each
// answering the same URL differently. Each registers its answer, waits until all fifty have
// registered theirs, then asks five times and must get its own answer every time.
// Scripts/prove-isolation runs this file's tests 20 times in a row.
import Foundation
import RequestMockerTestSupport
import RequestMockerTesting
import Testing

enum Isolation {
    static let url = "https://api.isolation.test/whoami"
    static let testCount = 50
    /// How many tests have registered, when the last of them did, and whether one gave up.
    private static let arrivals = LockedState(
        (registered: 0, last: ContinuousClock.now, gaveUp: false))

    /// The closure form of the trait: the answer is registered before the test runs.
    static func answering(_ number: Int) -> MockingTrait {
        .mocking { $0.register(.get(url), respond: answer(number)) }
    }

    static func answer(_ number: Int) -> MockResponse {
        .string("test \(number)").delayed(by: .milliseconds(number % 4))
    }

    /// Registers (unless the trait did), waits for every other isolation test, then checks.
    static func check(_ number: Int, registerHere: Bool) async throws {
        let registry = MockRegistry.current
        if registerHere { registry.register(.get(url), respond: answer(number)) }
        try await allRegistered()
        for _ in 0..<5 {
            let (status, body) = try await get(url, through: registry.session)
            #expect(status == 200)
            #expect(body == "test \(number)")
        }
        registry.assertRequested(.get(url), times: 5)
        #expect(registry.filters.count == 1)
    }

    /// Waits until all fifty tests have registered, so every answer exists at once. If the
    /// runner doesn't run them together, that is reported: the proof would prove nothing. The
    /// wait lasts as long as tests keep arriving (a busy machine starts them slowly): it gives
    /// up after 60 s without a new one, and every other test stops waiting then too.
    private static func allRegistered() async throws {
        arrivals.withLock {
            $0.registered += 1
            $0.last = .now
        }
        while true {
            let (registered, gaveUp) = arrivals.withLock { arrivals in
                if arrivals.registered < testCount, ContinuousClock.now - arrivals.last > .seconds(60) {
                    arrivals.gaveUp = true
                }
                return (arrivals.registered, arrivals.gaveUp)
            }
            if registered >= testCount { return }
            if gaveUp {
                let arrived = "only \(registered) of \(testCount) isolation tests ran at the same time"
                Issue.record("\(arrived) (no other arrived for 60 s)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

@Suite(.timeLimit(.minutes(3)), .hangGuard) struct IsolationTests {
    @Test(Isolation.answering(1)) func isolated01() async throws { try await Isolation.check(1, registerHere: false) }
    @Test(.mocking) func isolated02() async throws { try await Isolation.check(2, registerHere: true) }
    @Test(Isolation.answering(3)) func isolated03() async throws { try await Isolation.check(3, registerHere: false) }
    @Test(.mocking) func isolated04() async throws { try await Isolation.check(4, registerHere: true) }
    @Test(Isolation.answering(5)) func isolated05() async throws { try await Isolation.check(5, registerHere: false) }
    @Test(.mocking) func isolated06() async throws { try await Isolation.check(6, registerHere: true) }
    @Test(Isolation.answering(7)) func isolated07() async throws { try await Isolation.check(7, registerHere: false) }
    @Test(.mocking) func isolated08() async throws { try await Isolation.check(8, registerHere: true) }
    @Test(Isolation.answering(9)) func isolated09() async throws { try await Isolation.check(9, registerHere: false) }
    @Test(.mocking) func isolated10() async throws { try await Isolation.check(10, registerHere: true) }
    @Test(Isolation.answering(11)) func isolated11() async throws { try await Isolation.check(11, registerHere: false) }
    @Test(.mocking) func isolated12() async throws { try await Isolation.check(12, registerHere: true) }
    @Test(Isolation.answering(13)) func isolated13() async throws { try await Isolation.check(13, registerHere: false) }
    @Test(.mocking) func isolated14() async throws { try await Isolation.check(14, registerHere: true) }
    @Test(Isolation.answering(15)) func isolated15() async throws { try await Isolation.check(15, registerHere: false) }
    @Test(.mocking) func isolated16() async throws { try await Isolation.check(16, registerHere: true) }
    @Test(Isolation.answering(17)) func isolated17() async throws { try await Isolation.check(17, registerHere: false) }
    @Test(.mocking) func isolated18() async throws { try await Isolation.check(18, registerHere: true) }
    @Test(Isolation.answering(19)) func isolated19() async throws { try await Isolation.check(19, registerHere: false) }
    @Test(.mocking) func isolated20() async throws { try await Isolation.check(20, registerHere: true) }
    @Test(Isolation.answering(21)) func isolated21() async throws { try await Isolation.check(21, registerHere: false) }
    @Test(.mocking) func isolated22() async throws { try await Isolation.check(22, registerHere: true) }
    @Test(Isolation.answering(23)) func isolated23() async throws { try await Isolation.check(23, registerHere: false) }
    @Test(.mocking) func isolated24() async throws { try await Isolation.check(24, registerHere: true) }
    @Test(Isolation.answering(25)) func isolated25() async throws { try await Isolation.check(25, registerHere: false) }
    @Test(.mocking) func isolated26() async throws { try await Isolation.check(26, registerHere: true) }
    @Test(Isolation.answering(27)) func isolated27() async throws { try await Isolation.check(27, registerHere: false) }
    @Test(.mocking) func isolated28() async throws { try await Isolation.check(28, registerHere: true) }
    @Test(Isolation.answering(29)) func isolated29() async throws { try await Isolation.check(29, registerHere: false) }
    @Test(.mocking) func isolated30() async throws { try await Isolation.check(30, registerHere: true) }
    @Test(Isolation.answering(31)) func isolated31() async throws { try await Isolation.check(31, registerHere: false) }
    @Test(.mocking) func isolated32() async throws { try await Isolation.check(32, registerHere: true) }
    @Test(Isolation.answering(33)) func isolated33() async throws { try await Isolation.check(33, registerHere: false) }
    @Test(.mocking) func isolated34() async throws { try await Isolation.check(34, registerHere: true) }
    @Test(Isolation.answering(35)) func isolated35() async throws { try await Isolation.check(35, registerHere: false) }
    @Test(.mocking) func isolated36() async throws { try await Isolation.check(36, registerHere: true) }
    @Test(Isolation.answering(37)) func isolated37() async throws { try await Isolation.check(37, registerHere: false) }
    @Test(.mocking) func isolated38() async throws { try await Isolation.check(38, registerHere: true) }
    @Test(Isolation.answering(39)) func isolated39() async throws { try await Isolation.check(39, registerHere: false) }
    @Test(.mocking) func isolated40() async throws { try await Isolation.check(40, registerHere: true) }
    @Test(Isolation.answering(41)) func isolated41() async throws { try await Isolation.check(41, registerHere: false) }
    @Test(.mocking) func isolated42() async throws { try await Isolation.check(42, registerHere: true) }
    @Test(Isolation.answering(43)) func isolated43() async throws { try await Isolation.check(43, registerHere: false) }
    @Test(.mocking) func isolated44() async throws { try await Isolation.check(44, registerHere: true) }
    @Test(Isolation.answering(45)) func isolated45() async throws { try await Isolation.check(45, registerHere: false) }
    @Test(.mocking) func isolated46() async throws { try await Isolation.check(46, registerHere: true) }
    @Test(Isolation.answering(47)) func isolated47() async throws { try await Isolation.check(47, registerHere: false) }
    @Test(.mocking) func isolated48() async throws { try await Isolation.check(48, registerHere: true) }
    @Test(Isolation.answering(49)) func isolated49() async throws { try await Isolation.check(49, registerHere: false) }
    @Test(.mocking) func isolated50() async throws { try await Isolation.check(50, registerHere: true) }
}
