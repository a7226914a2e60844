extension MockDataFolder: AnswerSource {
    /// Answers from the first file the naming convention finds; a recording folder sends what
    /// it has no file for to the network, to be written as the first name looked for.
    func answer(_ request: MockRequest, misses: inout [SourceAnswer.Miss]) -> SourceAnswer? {
        guard let recording, let named = recording.redaction.redact(request, headers: false) else {
            return find(request, misses: &misses)
        }
        let records = recording.mode.records(isNew: recording.isNew) && recording.hosts.accepts(request)
        if recording.mode.playsBack {
            let found = find(named, misses: &misses)
            guard records, found == nil else { return found }
        } else if !records {
            misses.append(miss(triedNames: []))
            return nil
        }
        // A header in the name that redaction hides is written under the name with its hash
        // (the second candidate), so no credential ends up in a file name.
        let candidates = MockDataNaming(allowsWildcards: false, headersInName: headersInName).candidates(for: named)
        let hidesNamedHeader = headersInName.contains {
            recording.redaction.headers[$0.lowercased()] != nil && named.header(HTTPHeaders.Name($0)) != nil
        }
        guard let name = hidesNamedHeader && candidates.count > 1 ? candidates[1] : candidates.first else {
            misses.append(miss(triedNames: []))
            return nil
        }
        let target = FileRecording(
            folder: self, file: URL(fileURLWithPath: root).appendingPathComponent(name + ".http"))
        return .record(RecordingTicket(request: recording.redaction.redact(request) ?? named, target: target))
    }

    private func find(_ request: MockRequest, misses: inout [SourceAnswer.Miss]) -> SourceAnswer? {
        let candidates = candidateFileNames(for: request)
        do {
            let names = try currentNames()
            guard let name = candidates.first(where: names.contains) else {
                misses.append(miss(triedNames: candidates))
                return nil
            }
            let file = try file(named: name)
            return .respond(file.response, captures: Captures(), from: .file(file.url))
        } catch {
            return .fail(error)
        }
    }

    private func miss(triedNames names: [String]) -> SourceAnswer.Miss {
        SourceAnswer.Miss(
            note: { "\(self) has none of, in lookup order: \(names.joined(separator: ", "))" }, forbidsNetwork: false)
    }
}
