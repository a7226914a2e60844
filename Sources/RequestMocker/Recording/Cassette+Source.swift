extension Cassette: AnswerSource {
    /// Plays back the first unplayed recording that matches; records what none matches when
    /// the mode records, and otherwise misses in a way that forbids the network. Requests to
    /// other hosts, or that the request hook excludes, are not this cassette's business.
    package func answer(_ request: MockRequest, misses: inout [SourceAnswer.Miss]) -> SourceAnswer? {
        guard hosts.accepts(request), let live = redaction.redact(request) else { return nil }
        if recordMode.playsBack, let (index, recording) = claim(live) {
            let response = recording.response(for: request, from: url, entry: index).delayed(
                by: playback.delay(forRecorded: recording.interaction.duration))
            return .respond(response, captures: Captures(), from: .recording(url, entryIndex: index))
        }
        guard recordMode.records(isNew: isNew) else {
            misses.append(SourceAnswer.Miss(note: { self.missNote(for: request) }, forbidsNetwork: true))
            return nil
        }
        return .record(RecordingTicket(request: live, target: self))
    }

    /// Finds the first unplayed recording that matches and marks it played. Candidates come
    /// from the key index; the other matchers (user code) run outside the lock, and the claim
    /// is checked again under it, so two identical requests never get the same recording.
    private func claim(_ live: MockRequest) -> (Int, Recording)? {
        let liveKey = indexKey(live)
        let (bucket, cursor, recordings) = tape.withLock {
            ($0.buckets[liveKey] ?? [], $0.cursors[liveKey] ?? 0, $0.recordings)
        }
        for index in bucket[min(cursor, bucket.count)...] {
            let recording = recordings[index]
            guard !tape.withLock({ $0.played[index] }),
                let recorded = recording.matchRequest, otherMatchersPass(live, recorded)
            else { continue }
            let claimed = tape.withLock { tape in
                guard !tape.played[index] else { return false }
                tape.markPlayed(index, key: liveKey)
                return true
            }
            if claimed { return (index, recording) }
        }
        guard repeatsLastResponse else { return nil }
        // Everything matching has answered: the last matching recording answers again.
        for index in bucket.reversed() {
            if let recorded = recordings[index].matchRequest, otherMatchersPass(live, recorded) {
                return (index, recordings[index])
            }
        }
        return nil
    }

    private func otherMatchersPass(_ live: MockRequest, _ recorded: MockRequest) -> Bool {
        otherMatchers.allSatisfy { $0.matches(live, recorded) }
    }

    /// Why `request` found no recording: the nearest recording and the first matcher that
    /// differed, for the unmatched-request report.
    func missNote(for request: MockRequest) -> String {
        let live = redaction.redact(request) ?? request
        let (recordings, played) = tape.withLock { ($0.recordings, $0.played) }
        var head =
            "\(self) (mode \(recordMode), \(recordings.count) recording\(recordings.count == 1 ? "" : "s"), "
            + "\(played.count { $0 }) played)"
        if !recordMode.playsBack {
            head += " plays nothing back in mode \(recordMode)"
        } else if recordings.isEmpty {
            head += " is empty"
        } else {
            var best: (index: Int, score: (Int, Int), failed: CassetteMatcher?, recorded: MockRequest)?
            for (index, recording) in recordings.enumerated() {
                guard let recorded = recording.matchRequest else { continue }
                var passed = 0
                var failed: CassetteMatcher?
                for matcher in matchers {
                    if matcher.matches(live, recorded) { passed += 1 } else if failed == nil { failed = matcher }
                }
                // More matchers passed first, then unplayed before played, then earlier.
                let score = (passed, played[index] ? 0 : 1)
                if best.map({ score > $0.score }) ?? true { best = (index, score, failed, recorded) }
            }
            if let best {
                let shown = "entry \(best.index) (\(best.recorded))"
                if let failed = best.failed {
                    head +=
                        " has no recording for it; nearest is \(shown), whose \(failed.name) differs: "
                        + "recorded \(failed.show(best.recorded).quotedForReport), "
                        + "request has \(failed.show(live).quotedForReport)"
                } else {
                    head +=
                        " has answered this request already: \(shown) matches, and each recording answers once; "
                        + "record it again, or pass repeatsLastResponse: true to keep answering with the last"
                }
            }
        }
        if recordMode.recording == .whenNew, !isNew {
            head +=
                "; mode \(recordMode) records only into a new file, so delete it to record again, or run with "
                + "\(RecordMode.environmentVariable)=new_episodes"
        }
        return head
    }
}

extension String {
    /// Quoted, or `(empty)`, as diagnostics show values.
    var quotedForReport: String { isEmpty ? "(empty)" : "\"\(self)\"" }
}
