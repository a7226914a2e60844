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
        // What redaction hid is written under its hash (a header in the name, the query, the
        // body), so no credential, and no placeholder where one stood, ends up in a file name.
        let hashing = (
            query: named.url.query != request.url.query,
            headers: headersInName.contains {
                recording.redaction.replacement(forHeader: $0) != nil && named.header(HTTPHeaders.Name($0)) != nil
            },
            body: named.body != request.body
        )
        let naming = MockDataNaming(allowsWildcards: false, headersInName: headersInName)
        guard
            let name = naming.recordingName(for: named, hashing: hashing)
                ?? naming.recordingName(for: named, hashing: (query: true, headers: true, body: true))
        else {
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
