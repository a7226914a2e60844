import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// The package's lock, which keeps its value and its mutex in one `ManagedBuffer`.
@Suite("LockedState", .timeLimit(.minutes(3)), .hangGuard)
struct LockedStateTests {
    final class Tracked: Sendable {}

    @Test("the value is released with the last copy of the lock, not before")
    func releasesItsValue() {
        weak var tracked: Tracked?
        do {
            let value = Tracked()
            tracked = value
            let state = LockedState<Tracked?>(value)
            let copy = state
            _ = consume state
            #expect(copy.withLock { $0 } === tracked, "a copy shares the value")
            #expect(tracked != nil)
        }
        #expect(tracked == nil, "the buffer's header was destroyed with it")
    }

    @Test("changes through one copy are seen through another")
    func copiesShare() {
        let state = LockedState(0)
        let copy = state
        state.withLock { $0 += 2 }
        #expect(copy.withLock { $0 } == 2)
    }
}
