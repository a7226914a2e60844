import Foundation
import RequestMocker

extension UInt8 {
    static let cr: UInt8 = 13
    static let lf: UInt8 = 10
    static let space: UInt8 = 32
    static let tab: UInt8 = 9
    static let colon: UInt8 = 58
    static let semicolon: UInt8 = 59
    static let dot: UInt8 = 46

    var isHexDigit: Bool {
        (48...57).contains(self) || (65...70).contains(self) || (97...102).contains(self)
    }

    var isDecimalDigit: Bool {
        (48...57).contains(self)
    }

    var digitValue: Int? {
        (48...57).contains(self) ? Int(self - 48) : nil
    }
}
