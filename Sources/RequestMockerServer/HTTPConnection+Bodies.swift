import Foundation
import RequestMocker

// Writing bodies that take time: paced at a bandwidth limit, or relayed as they arrive (a
// forwarded response's, or a mocked stream's), piece by piece.
extension HTTPConnection {
    /// Sends the first `limit` bytes of the body, in pieces, at the response's bandwidth limit.
    func sendBody(_ response: ResolvedResponse, file: FileHandle?, limit: Int) -> Bool {
        let rate = response.transfer.bytesPerSecond
        // Twenty pieces a second under a limit, so the pace is smooth; 64 KiB pieces otherwise.
        let piece = rate.map { max(1, min(64 * 1024, $0 / 20)) } ?? 64 * 1024
        let began = clock.now
        var sent = 0
        while sent < limit {
            let count = min(piece, limit - sent)
            let chunk: Data
            switch response.body {
            case .bytes(let data):
                chunk = data.subdata(in: (data.startIndex + sent)..<(data.startIndex + sent + count))
            case .file:
                guard let read = try? file?.read(upToCount: count), !read.isEmpty else { return false }
                chunk = read
            case .stream:
                return false  // relayed by `relay`, never sent from here
            }
            guard (try? socket.write(chunk)) != nil else { return false }
            sent += chunk.count
            if let rate, sent < limit {
                // Paced against the start, so rounding in each pause doesn't add up.
                let due = began + .milliseconds(Int64(sent) * 1000 / Int64(rate))
                let wait = clock.now.duration(to: due)
                if wait > .zero, !connection.pause(wait) { return false }
            }
        }
        return true
    }

    /// Relays a body as it arrives, each piece written when it comes: framed by its announced
    /// `Content-Length`, or else chunked to an HTTP/1.1 client and ended by closing the
    /// connection to an HTTP/1.0 one. A body that breaks off closes the connection before its
    /// end, so the client sees it incomplete. Returns whether the connection stays open.
    func relay(
        _ stream: BodyStream, _ response: ResolvedResponse, sendsBody: Bool, head: RequestHead, request: MockRequest,
        entry: JournalEntry?, since arrival: ContinuousClock.Instant
    ) -> Bool {
        // Chunked only in an HTTP/1.1 message to an HTTP/1.1 client: an HTTP/1.0 response with
        // Transfer-Encoding is faulty framing (RFC 9112 §6.1), so it ends by closing instead.
        let chunked =
            sendsBody && stream.expectedLength == nil && head.minorVersion > 0 && response.httpVersion != "HTTP/1.0"
        let closing =
            !head.keepAlive || connection.isStopping || (sendsBody && stream.expectedLength == nil && !chunked)
            || response.headers.contains(token: "close", in: .connection)
        var pendingHead: [UInt8]? = ResponseHead.bytes(
            status: response.status, version: response.httpVersion, headers: response.headers,
            connection: connectionHeader(closing, head), chunked: chunked)
        guard sendsBody else {
            // Nothing of it goes to the client, but the sender's exchange is let finish (a
            // recording of a 204 is written, a kept upstream connection goes back): bodies that
            // aren't sent are empty, so this is quick.
            drain(stream)
            guard write(Data(), chunked: false, ending: false, after: &pendingHead) else {
                report(request, entry, .abandoned, since: arrival)
                return false
            }
            report(request, entry, .responded(status: response.status), since: arrival)
            return !closing
        }
        // Each piece is written as it comes, except the one that completes an announced length,
        // which waits for the end (as the last chunk and a closing connection do): so a client has
        // the whole body only once the sender has finished, and a recording of it is written. The
        // head goes out with the first piece when that is already there (one write, one packet),
        // and at once when it isn't.
        var relayed = 0
        var held: Data?
        // What the dashboard shows of the body: its first bytes.
        var shown = Data()
        let keepsShown = server.dashboard != nil && !AdminAPI.handles(request)
        var first: BodyStream.Next? = stream.next(waitingAtMost: .zero)
        while true {
            let next: PooledConnection.Waited<BodyStream.Next>
            if let taken = first {
                first = nil
                next = .value(taken)
            } else {
                if pendingHead != nil, held == nil, !write(Data(), chunked: false, ending: false, after: &pendingHead) {
                    stream.cancel()
                    report(request, entry, .abandoned, since: arrival)
                    return false
                }
                next = connection.next(of: stream)
            }
            switch next {
            case .value(.bytes(let piece)):
                relayed += piece.count
                if keepsShown, shown.count < DashboardExchange.shownBytes {
                    shown.append(piece.prefix(DashboardExchange.shownBytes - shown.count))
                }
                if let length = stream.expectedLength, relayed >= length {
                    held = (held ?? Data()) + piece
                } else if !write(piece, chunked: chunked, ending: false, after: &pendingHead) {
                    stream.cancel()
                    report(request, entry, .abandoned, since: arrival)
                    return false
                }
            case .value(.pending):
                continue
            case .value(.end):
                if let length = stream.expectedLength, relayed != length {
                    // Fewer or more bytes than announced: the client must not take it as whole.
                    _ = write(Data(), chunked: false, ending: false, after: &pendingHead)
                    let reason = "the upstream announced \(length) bytes and sent \(relayed)"
                    report(request, entry, .brokeOff(status: response.status, reason: reason), since: arrival)
                    return false
                }
                guard write(held ?? Data(), chunked: chunked, ending: true, after: &pendingHead) else {
                    report(request, entry, .abandoned, since: arrival)
                    return false
                }
                report(
                    request, entry, .responded(status: response.status), since: arrival, response: response,
                    relayed: (shown, relayed))
                return !closing
            case .value(.failed(let error)):
                _ = write(Data(), chunked: false, ending: false, after: &pendingHead)
                let reason = (error as? URLError)?.reason ?? "\(error)"
                report(request, entry, .brokeOff(status: response.status, reason: reason), since: arrival)
                return false
            case .stopped, .clientLeft, .timedOut, .overloaded:
                report(request, entry, .abandoned, since: arrival)
                return false
            }
        }
    }

    /// Reads a relayed body to its end without sending it, for at most a second (a mocked
    /// stream, which has no sender waiting, is dropped at once).
    private func drain(_ stream: BodyStream) {
        guard stream.needsDraining else { return stream.cancel() }
        let deadline = clock.now + .seconds(1)
        while clock.now < deadline {
            switch stream.next(waitingAtMost: .milliseconds(100)) {
            case .bytes, .pending: continue
            case .end, .failed: return
            }
        }
        stream.cancel()
    }

    /// Writes what is still to go of the head, then a relayed piece (as a chunk when `chunked`,
    /// with the last chunk when `ending`), in one write.
    private func write(_ piece: Data, chunked: Bool, ending: Bool, after head: inout [UInt8]?) -> Bool {
        var out = head ?? []
        head = nil
        out.reserveCapacity(out.count + piece.count + 17)
        if chunked, !piece.isEmpty {
            out.append(contentsOf: Array(String(piece.count, radix: 16).utf8) + [.cr, .lf])
            out.append(contentsOf: piece)
            out.append(contentsOf: [.cr, .lf])
        } else {
            out.append(contentsOf: piece)
        }
        if chunked, ending { out.append(contentsOf: Array("0\r\n\r\n".utf8)) }
        return out.isEmpty || (try? socket.write(out)) != nil
    }
}
