/// The secret part of the studio's address: 128 random bits as 32 lowercase hex digits
/// (`SystemRandomNumberGenerator`: the kernel's `getrandom`). Only a page given the address
/// can read the patterns; another local user's process or a web page in the browser
/// cannot guess it.
///
/// Thread: a value type; any thread.
public struct StudioToken: Sendable, Hashable, CustomStringConvertible {
    /// The token as 32 lowercase hex digits (a given one: as given).
    public let text: String

    /// A new random token.
    public static func random() -> StudioToken {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next(), generator.next()] as [UInt64]
        let hex = words.map { word -> String in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return StudioToken(text: hex.joined())
    }

    /// A given token (tests).
    public init(text: String) { self.text = text }

    /// Whether `candidate` is the token, in time that does not depend on where they differ.
    public func matches<S: StringProtocol>(_ candidate: S) -> Bool {
        let a = Array(text.utf8), b = Array(candidate.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    public var description: String { text }
}
