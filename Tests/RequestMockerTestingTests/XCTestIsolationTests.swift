// The XCTest half of the isolation proof: fifty tests, each answering the same URL
// differently from its own `mockRegistry()`. XCTest runs one test at a time in a process;
// `swift test --parallel` spreads them over worker processes (Scripts/prove-isolation does both).
import Foundation
import RequestMockerTestSupport
import RequestMockerTesting
import XCTest

final class XCTestIsolationTests: XCTestCase {
    private static let url = "https://api.isolation.test/whoami"

    private func check(_ number: Int) async throws {
        let mocks = mockRegistry()
        mocks.register(
            .get(Self.url).expected(), respond: .string("xctest \(number)").delayed(by: .milliseconds(number % 4)))
        for _ in 0..<3 {
            let (data, response) = try await mocks.session.data(from: XCTUnwrap(URL(string: Self.url)))
            XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
            XCTAssertEqual(String(decoding: data, as: UTF8.self), "xctest \(number)")
        }
        mocks.assertRequested(.get(Self.url), times: 3)
        XCTAssertEqual(mocks.filters.count, 1)
    }

    func testIsolated01() async throws { try await check(1) }
    func testIsolated02() async throws { try await check(2) }
    func testIsolated03() async throws { try await check(3) }
    func testIsolated04() async throws { try await check(4) }
    func testIsolated05() async throws { try await check(5) }
    func testIsolated06() async throws { try await check(6) }
    func testIsolated07() async throws { try await check(7) }
    func testIsolated08() async throws { try await check(8) }
    func testIsolated09() async throws { try await check(9) }
    func testIsolated10() async throws { try await check(10) }
    func testIsolated11() async throws { try await check(11) }
    func testIsolated12() async throws { try await check(12) }
    func testIsolated13() async throws { try await check(13) }
    func testIsolated14() async throws { try await check(14) }
    func testIsolated15() async throws { try await check(15) }
    func testIsolated16() async throws { try await check(16) }
    func testIsolated17() async throws { try await check(17) }
    func testIsolated18() async throws { try await check(18) }
    func testIsolated19() async throws { try await check(19) }
    func testIsolated20() async throws { try await check(20) }
    func testIsolated21() async throws { try await check(21) }
    func testIsolated22() async throws { try await check(22) }
    func testIsolated23() async throws { try await check(23) }
    func testIsolated24() async throws { try await check(24) }
    func testIsolated25() async throws { try await check(25) }
    func testIsolated26() async throws { try await check(26) }
    func testIsolated27() async throws { try await check(27) }
    func testIsolated28() async throws { try await check(28) }
    func testIsolated29() async throws { try await check(29) }
    func testIsolated30() async throws { try await check(30) }
    func testIsolated31() async throws { try await check(31) }
    func testIsolated32() async throws { try await check(32) }
    func testIsolated33() async throws { try await check(33) }
    func testIsolated34() async throws { try await check(34) }
    func testIsolated35() async throws { try await check(35) }
    func testIsolated36() async throws { try await check(36) }
    func testIsolated37() async throws { try await check(37) }
    func testIsolated38() async throws { try await check(38) }
    func testIsolated39() async throws { try await check(39) }
    func testIsolated40() async throws { try await check(40) }
    func testIsolated41() async throws { try await check(41) }
    func testIsolated42() async throws { try await check(42) }
    func testIsolated43() async throws { try await check(43) }
    func testIsolated44() async throws { try await check(44) }
    func testIsolated45() async throws { try await check(45) }
    func testIsolated46() async throws { try await check(46) }
    func testIsolated47() async throws { try await check(47) }
    func testIsolated48() async throws { try await check(48) }
    func testIsolated49() async throws { try await check(49) }
    func testIsolated50() async throws { try await check(50) }
}
