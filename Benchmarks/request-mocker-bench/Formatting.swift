import Foundation

// What every row of the table uses: durations in seconds and microseconds, and the options.

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func microseconds(_ duration: Duration) -> String {
    String(format: "%.1f", seconds(duration) * 1e6)
}

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let parsed = Int(arguments[index + 1])
    else { return value }
    return parsed
}
