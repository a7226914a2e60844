import Foundation
import RequestMocker

/// A request the server refuses before matching it: the status to answer with, and why.
struct Rejection: Error, Sendable {
    let status: HTTPStatus
    let reason: String
}
