import Foundation
import RequestMocker

/// The number keywords: `minimum`, `maximum`, their exclusive forms, `multipleOf` and the `int32`
/// and `int64` formats, on `Double`s where they hold the number written, else exactly
/// (``ExactNumber``); and `enum` entries compared as written.
extension SchemaValidator {
    mutating func checkNumber(_ number: Double, _ value: JSONValue, _ schema: Schema) {
        let shown = Self.shown(value)
        if let minimum = schema.minimum, number < minimum {
            report("minimum", "\(shown) is less than the minimum \(Self.shown(minimum))")
        }
        if let maximum = schema.maximum, number > maximum {
            report("maximum", "\(shown) is more than the maximum \(Self.shown(maximum))")
        }
        if let bound = schema.exclusiveMinimum, number <= bound {
            report("exclusiveMinimum", "\(shown) must be more than \(Self.shown(bound))")
        }
        if let bound = schema.exclusiveMaximum, number >= bound {
            report("exclusiveMaximum", "\(shown) must be less than \(Self.shown(bound))")
        }
        if let multiple = schema.multipleOf, !Self.isMultiple(value, of: multiple, nil) {
            report("multipleOf", "\(shown) is not a multiple of \(Self.shown(multiple))")
        }
        if let format = schema.format, let problem = FormatCheck.problem(with: value, format: format) {
            report("format", "\(shown) is not \(problem)")
        }
    }

    /// The number checks of a number carried exactly, or of any number against bounds the
    /// contract writes exactly: each compared as written.
    mutating func checkNumber(_ number: ExactNumber?, _ value: JSONValue, _ schema: Schema) {
        guard let number else { return checkNumber(value.doubleValue ?? 0, value, schema) }
        let shown = number.description.count > 40 ? Self.shown(value) : number.description
        func bound(_ keyword: String, _ double: Double?) -> ExactNumber? {
            schema.exactBounds[keyword] ?? double.flatMap { ExactNumber($0) }
        }
        if let minimum = bound("minimum", schema.minimum), number < minimum {
            report("minimum", "\(shown) is less than the minimum \(minimum)")
        }
        if let maximum = bound("maximum", schema.maximum), number > maximum {
            report("maximum", "\(shown) is more than the maximum \(maximum)")
        }
        if let minimum = bound("exclusiveMinimum", schema.exclusiveMinimum), number <= minimum {
            report("exclusiveMinimum", "\(shown) must be more than \(minimum)")
        }
        if let maximum = bound("exclusiveMaximum", schema.exclusiveMaximum), number >= maximum {
            report("exclusiveMaximum", "\(shown) must be less than \(maximum)")
        }
        if let step = bound("multipleOf", schema.multipleOf),
            !(number.isMultiple(of: step) ?? Self.isMultiple(value, of: step.double, nil))
        {
            report("multipleOf", "\(shown) is not a multiple of \(step)")
        }
        if let format = schema.format, let problem = FormatCheck.problem(with: number, format: format) {
            report("format", "\(shown) is not \(problem)")
        }
    }

    /// Whether `nodes` (an `enum`'s entries) hold `value`, numbers compared as written.
    static func contains(_ nodes: [DocumentNode], _ number: ExactNumber?, _ value: JSONValue) -> Bool {
        nodes.contains { node in
            switch node.value {
            case .exactNumber(let entry): entry == number
            case .int(let entry): number.map { $0 == ExactNumber(entry) } ?? false
            case .double(let entry): number.map { $0 == ExactNumber(entry) } ?? false
            default: node.jsonValue == value
            }
        }
    }

    /// Whether `value` is a whole multiple of `multiple`, as the decimals they are written as
    /// (`0.30000000000001` is not a multiple of `0.1`); `number` is the value when it is carried
    /// exactly.
    static func isMultiple(_ value: JSONValue, of multiple: Double, _ number: ExactNumber?) -> Bool {
        guard multiple > 0 else { return true }
        if case .int(let int) = value, multiple.rounded() == multiple, let step = Int(exactly: multiple) {
            return int % step == 0
        }
        if number == nil, let written = value.doubleValue.flatMap(Self.decimal), let step = Self.decimal(multiple),
            let isMultiple = Self.isMultiple(written, of: step)
        {
            return isMultiple
        }
        if let written = number ?? ExactNumber(value), let step = ExactNumber(multiple),
            let isMultiple = written.isMultiple(of: step)
        {
            return isMultiple
        }
        let quotient = (value.doubleValue ?? 0) / multiple
        return abs(quotient - quotient.rounded()) <= 1e-9 * max(1, abs(quotient))
    }

    /// The decimal `double` prints as, as `significand × 10^-scale`, when it has at most 15
    /// significant digits and 17 decimal places (then it is the number written, wherever that fits
    /// a Double): found without printing it, for `multipleOf` on every number of a large body.
    private static func decimal(_ double: Double) -> (significand: Int64, scale: Int)? {
        var power = 1.0
        for scale in 0...17 {
            let scaled = (double * power).rounded()
            if abs(scaled) < 1e15, scaled / power == double { return (Int64(scaled), scale) }
            power *= 10
        }
        return nil
    }

    /// Whether one decimal is a whole multiple of another, in integers; `nil` on overflow.
    private static func isMultiple(
        _ value: (significand: Int64, scale: Int), of step: (significand: Int64, scale: Int)
    ) -> Bool? {
        guard step.significand != 0 else { return nil }
        func scaled(_ number: (significand: Int64, scale: Int), to scale: Int) -> Int64? {
            var result = number.significand
            for _ in number.scale..<scale {
                let (product, overflow) = result.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                result = product
            }
            return result
        }
        let scale = max(value.scale, step.scale)
        guard let a = scaled(value, to: scale), let b = scaled(step, to: scale) else { return nil }
        return a % b == 0
    }
}
