import Foundation

/// What `request-mocker check` found, grouped: each kind of finding once per operation, rule,
/// status, media type, side and pointer (the first one's message standing for all), with how
/// often it was seen and up to three places; and what the checked traffic reached of the
/// contract (an OpenAPI contract's operations and statuses, a GraphQL schema's root fields).
/// Written as compiler-style text, as JSON, or as SARIF 2.1.0 for code-scanning tools. Both
/// contract kinds' checks write it, so both read alike.
package struct DriftReport: Sendable {
    /// One kind of finding: the first one seen, how many there were, and the first three.
    package struct Group: Sendable {
        package let finding: CheckFinding
        package fileprivate(set) var count: Int
        package fileprivate(set) var examples: [CheckFinding]

        var places: [String] { examples.map(\.place) }
    }

    /// What the coverage counts: an OpenAPI contract's operations (each with its declared
    /// statuses), or a GraphQL schema's root fields (`Query.hero`), which have none.
    package enum CoverageUnit: Sendable {
        case operations, rootFields
    }

    package private(set) var groups: [Group] = []
    /// Where each kind's group is, by its key.
    private var index: [String: Int] = [:]
    /// Findings of kinds past ``maximumGroups``, errors and warnings: counted, not listed.
    package private(set) var unlisted = (errors: 0, warnings: 0)
    /// The contract's operations (or root fields), each with the statuses it declares, those
    /// reached, and whether any exchange reached it at all (one whose every status is undeclared
    /// was exercised too: it has findings).
    package var operations: [(name: String, declared: [String], reached: Set<String>, exercised: Bool)] = []
    package var coverageUnit = CoverageUnit.operations

    /// The most kinds of finding listed: all of them for `check`, whose findings are all in
    /// memory anyway; 10,000 for `serve --upstream-first`, where live traffic to undocumented
    /// paths would otherwise make a kind per path for as long as the server runs.
    package let maximumGroups: Int
    /// The rules the check has, for SARIF's list of them; a check that adds another's findings
    /// (`check --stubs` adds the scenarios') adds its rules.
    package var rules: [CheckRule]

    /// A report of `findings`, every kind listed.
    package init(findings: [CheckFinding], rules: [CheckRule]) {
        maximumGroups = .max
        self.rules = rules
        for finding in findings { add(finding) }
    }

    /// An empty report that lists at most `maximumGroups` kinds of finding.
    package init(maximumGroups: Int, rules: [CheckRule]) {
        self.maximumGroups = maximumGroups
        self.rules = rules
    }

    /// Adds one finding to its kind's group; whether it is the first of its kind.
    @discardableResult
    package mutating func add(_ finding: CheckFinding) -> Bool {
        // The message names the value (`got "2"`): findings of one place group whatever it was,
        // and the places of a list's items are one (`/pets/0/id` and `/pets/1/id` are `/pets/*/id`).
        let key = [
            finding.rule.rawValue, finding.operation ?? finding.message, finding.status.map(String.init) ?? "",
            finding.mediaType ?? "", finding.location ?? "", finding.pointer.map(Self.anyItem) ?? "",
            finding.isError ? "e" : "w",
        ].joined(separator: "\u{1F}")
        if let known = index[key] {
            groups[known].count += 1
            if groups[known].examples.count < 3 { groups[known].examples.append(finding) }
            return false
        }
        guard groups.count < maximumGroups else {
            if finding.isError { unlisted.errors += 1 } else { unlisted.warnings += 1 }
            return false
        }
        index[key] = groups.count
        groups.append(Group(finding: finding, count: 1, examples: [finding]))
        return true
    }

    /// `pointer` with each array index as `*`.
    package static func anyItem(_ pointer: String) -> String {
        guard pointer.utf8.contains(where: { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return pointer
        }
        return pointer.split(separator: "/", omittingEmptySubsequences: false).map { step in
            !step.isEmpty && step.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ? "*" : step
        }.joined(separator: "/")
    }

    package var errors: Int { groups.reduce(unlisted.errors) { $0 + ($1.finding.isError ? $1.count : 0) } }
    package var warnings: Int { groups.reduce(unlisted.warnings) { $0 + ($1.finding.isError ? 0 : $1.count) } }

    /// One compiler-style line per kind of finding, at its first place, with its count.
    package var lines: [String] {
        groups.map { group in
            var line = group.finding.description
            if group.count > 1 {
                line +=
                    " (\(group.count) times; also at " + group.places.dropFirst().joined(separator: ", ")
                    + (group.count > group.places.count ? ", …" : "") + ")"
            }
            return line
        }
            + (unlisted == (0, 0)
                ? [] : ["\(unlisted.errors) errors and \(unlisted.warnings) warnings of more kinds are not listed"])
    }

    /// `n of m` operations and statuses (or root fields) reached, then the ones never seen.
    package var coverageLines: [String] {
        let reached = operations.filter(\.exercised)
        let statuses = operations.reduce(0) { $0 + $1.declared.count }
        let reachedStatuses = operations.reduce(0) { $0 + $1.reached.count }
        let counted: String =
            switch coverageUnit {
            case .operations:
                "\(reached.count) of \(operations.count) operations, "
                    + "\(reachedStatuses) of \(statuses) declared statuses"
            case .rootFields: "\(reached.count) of \(operations.count) root fields"
            }
        var lines = ["coverage: " + counted]
        for operation in operations where !operation.exercised {
            lines.append("  never seen: \(operation.name)")
        }
        for operation in operations where operation.exercised {
            let missing = operation.declared.filter { !operation.reached.contains($0) }
            if !missing.isEmpty { lines.append("  never seen: \(operation.name) " + missing.joined(separator: ", ")) }
        }
        return lines
    }

    /// The report as JSON: `{"findings": [...], "coverage": {...}}`.
    package var json: JSONValue {
        let findings: [JSONValue] = groups.map { group in
            let finding = group.finding
            var members: [String: JSONValue] = [
                "rule": .string(finding.rule.rawValue), "severity": .string(finding.isError ? "error" : "warning"),
                "message": .string(finding.message), "count": .int(group.count),
                "examples": .array(group.examples.map(Self.example)),
            ]
            members["operation"] = finding.operation.map(JSONValue.string) ?? .null
            members["status"] = finding.status.map(JSONValue.int) ?? .null
            members["mediaType"] = finding.mediaType.map(JSONValue.string) ?? .null
            members["in"] = finding.location.map(JSONValue.string) ?? .null
            members["pointer"] = finding.pointer.map(JSONValue.string) ?? .null
            return .object(members)
        }
        let reached = operations.filter(\.exercised)
        let unseen: [JSONValue] = operations.flatMap { operation in
            operation.declared.filter { !operation.reached.contains($0) }.map {
                JSONValue.string("\(operation.name) \($0)")
            }
        }
        let counted: JSONValue = [
            "exercised": .int(reached.count), "declared": .int(operations.count),
            "neverSeen": .array(operations.filter { !$0.exercised }.map { .string($0.name) }),
        ]
        let coverage: JSONValue =
            switch coverageUnit {
            case .rootFields: ["rootFields": counted]
            case .operations:
                [
                    "operations": counted,
                    "statuses": [
                        "exercised": .int(operations.reduce(0) { $0 + $1.reached.count }),
                        "declared": .int(operations.reduce(0) { $0 + $1.declared.count }), "neverSeen": .array(unseen),
                    ],
                ]
            }
        var report: [String: JSONValue] = ["findings": .array(findings), "coverage": coverage]
        if unlisted != (0, 0) {
            report["unlisted"] = ["errors": .int(unlisted.errors), "warnings": .int(unlisted.warnings)]
        }
        return .object(report)
    }

    /// The report as a SARIF 2.1.0 log: one result per kind of finding, its rule among the
    /// driver's rules, located at its first place.
    package var sarif: JSONValue {
        let rules: [JSONValue] = self.rules.map { rule in
            ["id": .string(rule.rawValue), "shortDescription": ["text": .string(rule.summary)]]
        }
        let results: [JSONValue] = groups.map { group in
            let finding = group.finding
            var result: [String: JSONValue] = [
                "ruleId": .string(finding.rule.rawValue), "level": .string(finding.isError ? "error" : "warning"),
                "message": ["text": .string(finding.message)],
                "locations": .array(group.places.map(Self.location)),
            ]
            var properties: [String: JSONValue] = ["count": .int(group.count)]
            if let operation = finding.operation { properties["operation"] = .string(operation) }
            if let status = finding.status { properties["status"] = .int(status) }
            if let mediaType = finding.mediaType { properties["mediaType"] = .string(mediaType) }
            if let location = finding.location { properties["in"] = .string(location) }
            if let pointer = finding.pointer { properties["pointer"] = .string(pointer) }
            result["properties"] = .object(properties)
            return .object(result)
        }
        return [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [
                [
                    "tool": [
                        "driver": [
                            "name": "request-mocker", "version": .string(RequestMockerVersion.current),
                            "informationUri": "https://github.com/requestmocker/RequestMocker",
                            "rules": .array(rules),
                        ]
                    ],
                    "results": .array(results),
                ]
            ],
        ]
    }

    /// Where a finding is: `{"file", "line", "entry"}` (the entry for a cassette's recordings), or
    /// for an exchange checked as it happened `{"exchange", "request"}` (its number and request line).
    private static func example(_ finding: CheckFinding) -> JSONValue {
        if let exchange = finding.exchange {
            return ["exchange": .int(exchange), "request": .string(finding.place)]
        }
        let (file, line) = split(finding.place)
        return [
            "file": .string(file), "line": line.map(JSONValue.int) ?? .null,
            "entry": finding.entry.map(JSONValue.int) ?? .null,
        ]
    }

    private static func location(_ place: String) -> JSONValue {
        let (file, line) = split(place)
        var physical: [String: JSONValue] = ["artifactLocation": ["uri": .string(file)]]
        if let line { physical["region"] = ["startLine": .int(line)] }
        return ["physicalLocation": .object(physical)]
    }

    private static func split(_ place: String) -> (file: String, line: Int?) {
        guard let colon = place.lastIndex(of: ":"), let line = Int(place[place.index(after: colon)...]) else {
            return (place, nil)
        }
        return (String(place[..<colon]), line)
    }
}
