/// Where a value sits inside a JSON document, printed the way people write it:
/// `cues[3].over`, `Pattern[2].Event.EventParameters[0].ParameterValue`.
///
/// The root prints as `$`. Keys that are not plain identifiers print in brackets with
/// quotes (`buses["my bus"]`) so the path stays unambiguous.
///
/// Thread: a value type; any thread.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step into a container.
    public enum Component: Sendable, Hashable {
        /// An object member, by key.
        case key(String)
        /// An array element, by 0-based index.
        case index(Int)
    }

    /// The steps from the root, outermost first.
    public var components: [Component]

    /// Creates a path from its steps.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// The document's root value.
    public static let root = JSONPath()

    /// This path extended by an object key.
    public func key(_ key: String) -> JSONPath {
        JSONPath(components + [.key(key)])
    }

    /// This path extended by an array index.
    public func index(_ index: Int) -> JSONPath {
        JSONPath(components + [.index(index)])
    }

    /// Whether this is the root path.
    public var isRoot: Bool { components.isEmpty }

    /// The printed form, e.g. `cues[3].over`; `$` for the root.
    public var description: String {
        guard !components.isEmpty else { return "$" }
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where Self.isIdentifier(key):
                text += text.isEmpty ? key : "." + key
            case .key(let key):
                text += "[\"" + key.replacingQuotes() + "\"]"
            }
        }
        return text
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first else { return false }
        func isLetter(_ s: Unicode.Scalar) -> Bool {
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || s == "_" || s == "$"
        }
        guard isLetter(first) else { return false }
        return key.unicodeScalars.allSatisfy { isLetter($0) || ($0 >= "0" && $0 <= "9") || $0 == "-" }
    }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        var out = ""
        for character in self {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
