import Foundation

/// Starts processes one at a time. Swift Testing runs the suites in parallel, and
/// swift-corelibs-foundation's `Process.run()` (6.3.1) crashed once in a few dozen full runs while
/// two started at once (a bad read in its `memcpy`, from `Process.run()` itself); starting them in
/// turn costs a few milliseconds each.
package enum ProcessLaunch {
    private static let lock = NSLock()

    package static func run(_ process: Process) throws {
        try lock.withLock { try process.run() }
    }
}
