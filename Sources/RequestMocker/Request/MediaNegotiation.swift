import Foundation

/// Chooses a media type a response offers by the request's `Accept` (RFC 9110, 12.5.1): each
/// offer gets the quality of the most specific range that matches it, and the best quality wins;
/// JSON wins ties, then the order offered.
package enum MediaNegotiation {
    /// One range of an `Accept` header: `type/subtype` (either may be `*`) and its quality.
    struct Range: Equatable {
        let type: String
        let subtype: String
        let quality: Double
    }

    /// The index in `offered` to answer with; `nil` when `accept` accepts none of them.
    package static func choose(accept: String?, offered: [String]) -> Int? {
        guard !offered.isEmpty else { return nil }
        // The common case: one media type, and a request that takes anything.
        if offered.count == 1, accept == nil || accept == "*/*" { return 0 }
        let ranges = accept.map(parse) ?? []
        let scores = offered.map { ranges.isEmpty ? 1 : quality(of: $0, under: ranges) }
        let best = offered.indices.filter { scores[$0] > 0 }.max { first, second in
            (scores[first], MediaType(offered[first]).isJSON ? 1 : 0, -first)
                < (scores[second], MediaType(offered[second]).isJSON ? 1 : 0, -second)
        }
        return best
    }

    /// The ranges of an `Accept` header; a range that can't be read is left out.
    static func parse(_ accept: String) -> [Range] {
        accept.split(separator: ",").compactMap { element in
            let parts = element.split(separator: ";")
            let range = MediaType(String(parts.first ?? ""))
            guard !range.type.isEmpty, !range.subtype.isEmpty, range.type != "*" || range.subtype == "*" else {
                return nil
            }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                if pair.count == 2, pair[0].lowercased() == "q" {
                    quality = Double(pair[1]).map { min(max($0, 0), 1) } ?? 1
                }
            }
            return Range(type: range.type, subtype: range.subtype, quality: quality)
        }
    }

    /// The quality of the most specific range matching `offer` (a wildcard offer such as
    /// `image/*` matches any range of its type); 0 when none does.
    private static func quality(of offer: String, under ranges: [Range]) -> Double {
        let offered = MediaType(offer)
        let (type, subtype) = (offered.type, offered.subtype)
        var best: (specificity: Int, quality: Double)?
        for range in ranges {
            let typeMatches = range.type == "*" || type == "*" || range.type == type
            let subtypeMatches = range.subtype == "*" || subtype == "*" || range.subtype == subtype
            guard typeMatches, subtypeMatches else { continue }
            let specificity = (range.type == "*" ? 0 : 2) + (range.subtype == "*" ? 0 : 1)
            if best.map({ specificity > $0.specificity }) ?? true { best = (specificity, range.quality) }
        }
        return best?.quality ?? 0
    }
}
