extension MockDataFolder: AnswerSource {
    /// Answers from the first file the naming convention finds; a recording folder sends what
    /// it has no file for to the network, to be written as the first name looked for.
    package func answer(_ request: MockRequest, misses: inout [SourceAnswer.Miss]) -> SourceAnswer? {
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
                misses.append(miss(of: request, triedNames: candidates))
                return nil
            }
            switch try lookUp(name) {
            case .cached(let file):
                return .respond(file.response, captures: Captures(), from: .file(file.url))
            case .unread:
                // Read where the transport makes slow answers, looked up again there (it may
                // have been read meanwhile, or replaced).
                return .respondLater(file: URL(fileURLWithPath: root + "/" + name)) {
                    do throws(RequestMockerError) {
                        let file: FolderCache.CachedFile
                        switch try self.lookUp(name) {
                        case .cached(let cached): file = cached
                        case .unread(let status): file = try self.read(name, status: status)
                        }
                        return .respond(file.response, from: .file(file.url))
                    } catch {
                        return .fail(error)
                    }
                }
            }
        } catch {
            return .fail(error)
        }
    }

    private func miss(triedNames names: [String]) -> SourceAnswer.Miss {
        SourceAnswer.Miss(
            note: { "\(self) has none of, in lookup order: \(names.joined(separator: ", "))" }, forbidsNetwork: false)
    }

    /// The miss of `request`, whose note leaves out the names that would show a secret (a
    /// `SecretNames` value in the query, a named header or the body): notes reach error messages
    /// and the server's log.
    private func miss(of request: MockRequest, triedNames names: [String]) -> SourceAnswer.Miss {
        let hidden = Redaction.default.redact(request, headers: false) ?? request
        let hashedOnly = (
            query: hidden.url.query != request.url.query,
            headers: headersInName.contains {
                SecretNames.isSecretHeader($0) && request.header(HTTPHeaders.Name($0)) != nil
            },
            body: hidden.body != request.body
        )
        guard hashedOnly.query || hashedOnly.headers || hashedOnly.body else { return miss(triedNames: names) }
        let naming = MockDataNaming(allowsWildcards: allowsWildcards, headersInName: headersInName)
        let shown = naming.candidates(for: request, hashedOnly: hashedOnly).flatMap { [$0 + ".http", $0 + ".json"] }
        return SourceAnswer.Miss(
            note: {
                "\(self) has none of, in lookup order: \(shown.joined(separator: ", ")) "
                    + "(and names that would show a secret of the request, left out here)"
            }, forbidsNetwork: false)
    }
}
