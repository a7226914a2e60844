import Testing

/// What a test's registry has to say when the test ends: requests no filter matched, requests
/// that broke a registered contract, requests that went to ``MockRegistry/shared`` instead,
/// filters that never answer because an earlier one answers their requests or their response
/// always fails, and expected filters nothing matched.
struct EndOfTestReport {
    /// One failure to report, and where.
    enum Finding {
        case atTest(String)
        case atCode(String, CodeLocation)
    }

    let findings: [Finding]

    /// - Parameter registry: the test's registry; for ``MockRegistry/shared`` (a global-mode
    ///   test) stray requests are not a thing, and its pass-through misses are not reported.
    init(_ registry: MockRegistry) {
        var findings: [Finding] = []
        for entry in registry.journal {
            if case .unmatched(let report) = entry.disposition {
                findings.append(.atTest("Unmatched request during the test: \(report)"))
            }
        }
        for entry in registry.contractViolations {
            guard let answer = entry.contractAnswer else { continue }
            findings.append(
                .atTest(
                    "A request broke the contract during the test: \(entry.request) (\(answer.operation), answered "
                        + "\(answer.status) \(answer.how))" + answer.violations.map { "\n  " + $0 }.joined()))
        }
        for stray in registry.strayRequests {
            findings.append(
                .atTest(
                    "\(stray) went to MockRegistry.shared (URLSession.shared, or a session with MockURLProtocol.self), "
                        + "not to this test's registry, "
                        + "so it can't be isolated from other tests: give the code under test "
                        + "MockRegistry.current.session, or run the test with the .mockingShared trait"
                ))
        }
        for shadowed in registry.shadowedFilters {
            findings.append(.atTest("A filter of this test never answers: \(shadowed)"))
        }
        for mistake in registry.filterMistakes {
            findings.append(.atTest("A filter of this test never answers: \(mistake)"))
        }
        for filter in registry.unmetExpectations {
            if let place = filter.expectedAt {
                findings.append(.atCode("Expected a request matching \(filter), but none arrived", place))
            }
        }
        self.findings = findings
    }

    /// Reports every finding; those about the test as a whole at `testPlace`.
    func record(atTest testPlace: ReportPlace) {
        for finding in findings {
            switch finding {
            case .atTest(let message): MockingIssue.record(message, at: testPlace)
            case .atCode(let message, let place): MockingIssue.record(message, at: place)
            }
        }
    }

    /// Runs `body`, then reports on `registry`, also when `body` throws (an unmatched request is
    /// often why it did), and then rethrows.
    static func reporting(
        on registry: MockRegistry,
        atTest place: ReportPlace,
        _ body: () async throws -> Void
    ) async throws {
        let outcome: Result<Void, any Error>
        do {
            try await body()
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        EndOfTestReport(registry).record(atTest: place)
        try outcome.get()
    }
}
