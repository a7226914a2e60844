import Foundation

/// What can go wrong when starting a server or loading a script, said so that the fix is clear.
public enum MockServerError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The address or port could not be bound: in use, not an address of this machine, or not
    /// allowed (ports below 1024 need privileges).
    case cannotListen(host: String, port: UInt16, reason: String)
    /// `start()` was called on a server that is running or was stopped; make a new one.
    case alreadyStarted
    /// A scripted-server rule's regular expression doesn't compile.
    case invalidPattern(pattern: String, reason: String)
    /// A script file is not valid: the file, where in it (`rules[2].commands[0]`), and why.
    case invalidScript(path: String, location: String, reason: String)
    /// A script file could not be read.
    case scriptNotReadable(path: String, reason: String)
    /// The admin API was turned on for an address other machines can reach, without a token.
    case adminNeedsToken(host: String)

    public var description: String {
        switch self {
        case .cannotListen(let host, let port, let reason):
            "can't listen on \(host):\(port): \(reason); use port 0 for any free port, or another address or port"
        case .alreadyStarted:
            "this server was already started; a server runs once, so create a new one to start again"
        case .invalidPattern(let pattern, let reason):
            "the rule pattern \(pattern.debugDescription) is not a valid regular expression: \(reason)"
        case .invalidScript(let path, let location, let reason):
            "\(path): \(location): \(reason)"
        case .scriptNotReadable(let path, let reason):
            "can't read the script \(path): \(reason)"
        case .adminNeedsToken(let host):
            "the admin API on \(host), which other machines can reach, needs a token: set Admin(token:) "
                + "(--admin-token TOKEN), or listen on 127.0.0.1"
        }
    }

    public var errorDescription: String? { description }
}
