import CabinAudio

/// The focus sessions Cabin exists for, as generators of session documents: `drive`,
/// `pomodoro`, `ambient`, `breathing`, `quest` and `ui`. Each takes string options (as the
/// CLI gives them), checks them (one clear line per problem), and returns a document that
/// users can print (`cabin session --preset NAME`), edit, play or render.
///
/// Thread: pure; any thread except the render thread.
public enum SessionPresets {
    /// A preset: its name, one line about it, its options with defaults, and the generator.
    public struct Preset: Sendable {
        /// What names it (`drive`), for `make(_:options:)` and `cabin session --preset`.
        public var name: String
        /// One line about it, for help and listings.
        public var summary: String
        /// The options it takes, in the order help lists them.
        public var options: [Option]
        let make: @Sendable (PresetOptions) throws(PresetError) -> SessionDocument
    }

    /// One option of a preset, as text (the CLI gives it as `--NAME VALUE`).
    public struct Option: Sendable {
        /// Its name, without dashes (`minutes`).
        public var name: String
        /// The value it takes when not given, as text.
        public var defaultValue: String
        /// One line of help: what it is and what it accepts.
        public var help: String
    }

    /// Every preset, in the order listings show them.
    public static let all: [Preset] = [DrivePreset.preset, PomodoroPreset.preset, AmbientPreset.preset,
                                       BreathingPreset.preset, BreathingPreset.questPreset, UIDemoPreset.preset]

    /// The preset `cabin play` plays with no arguments: a 25-minute drive.
    public static let defaultName = "drive"

    /// The preset called `name`, or nil.
    public static func named(_ name: String) -> Preset? { all.first { $0.name == name } }

    /// Builds preset `name` from `options` (option name without dashes → value).
    public static func make(_ name: String, options: [String: String] = [:]) throws(PresetError) -> SessionDocument {
        guard let preset = named(name) else {
            throw PresetError("no preset \"\(name)\": use \(all.map(\.name).joined(separator: ", "))")
        }
        let known = Set(preset.options.map(\.name))
        if let unknown = options.keys.sorted().first(where: { !known.contains($0) }) {
            let names = preset.options.map(\.name)
            throw PresetError(names.isEmpty ? "\(option: unknown) is not an option of the \(name) preset"
                                            : "\(option: unknown) is not an option of the \(name) preset (it takes \(options: names))")
        }
        return try preset.make(PresetOptions(values: options, preset: preset))
    }
}

/// A preset option that does not make sense, as one line. The preset's options are named
/// in the message as parts of their own, so that each reader spells them its way:
/// `description` by their names (`minutes must be a whole number …`), the CLI as its flags
/// (`spelled { "--" + $0 }`: `--minutes must be …`).
public struct PresetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A run of words, or the name of one of the preset's options.
    public enum Part: Sendable, Equatable {
        /// Words, written as they are.
        case text(String)
        /// An option's name without dashes (`minutes`), written as each reader spells it.
        case option(String)
    }

    /// The message, in order.
    public var parts: [Part]

    /// The option the message is about: the first one it names, if any.
    public var option: String? {
        parts.lazy.compactMap { if case .option(let name) = $0 { name } else { nil } }.first
    }

    /// The message with each option name written by `spell`.
    public func spelled(_ spell: (String) -> String) -> String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .option(let name): spell(name)
            }
        }.joined()
    }

    /// The message with options by their names, as `SessionPresets.make` takes them.
    public var description: String { spelled { $0 } }

    /// An error of `message`, written as a string with its options marked.
    public init(_ message: Message) { parts = message.parts }

    /// A message written as a string, options marked: `"\(option: "minutes") must be …"`,
    /// `"(it takes \(options: names))"`.
    public struct Message: ExpressibleByStringInterpolation, Sendable {
        var parts: [Part]

        /// A message of words only, naming no option.
        public init(stringLiteral value: String) { parts = [.text(value)] }
        /// The message an interpolated string literal builds.
        public init(stringInterpolation: Interpolation) { parts = stringInterpolation.parts }

        /// What an interpolated literal is built with: `\(value)` is words,
        /// `\(option: name)` one option, `\(options: names)` several, comma-separated.
        public struct Interpolation: StringInterpolationProtocol, Sendable {
            var parts: [Part] = []
            /// An empty message (the sizes are not used).
            public init(literalCapacity: Int, interpolationCount: Int) {}
            /// Appends words.
            public mutating func appendLiteral(_ literal: String) { text(literal) }
            /// Appends `value`'s description as words.
            public mutating func appendInterpolation(_ value: some CustomStringConvertible) { text(value.description) }
            /// Appends the option called `name` (without dashes).
            public mutating func appendInterpolation(option name: String) { parts.append(.option(name)) }
            /// Appends the options `names`, separated by `, `.
            public mutating func appendInterpolation(options names: [String]) {
                for (i, name) in names.enumerated() {
                    if i > 0 { text(", ") }
                    parts.append(.option(name))
                }
            }
            private mutating func text(_ text: String) {
                guard !text.isEmpty else { return }
                if case .text(let last) = parts.last { parts[parts.count - 1] = .text(last + text) } else { parts.append(.text(text)) }
            }
        }
    }
}

/// The options given to a preset, with typed readers that explain what is accepted.
public struct PresetOptions: Sendable {
    var values: [String: String]
    let preset: SessionPresets.Preset

    func raw(_ name: String) -> String {
        values[name] ?? preset.options.first { $0.name == name }?.defaultValue ?? ""
    }

    /// A whole number of minutes in `range` (accepts `25`, `25m`, `1h30m`).
    func minutes(_ name: String, in range: ClosedRange<Int>) throws(PresetError) -> Int {
        let text = raw(name)
        let seconds = Double(text).map { $0 * 60 } ?? SessionTime.parse(text)
        guard let seconds, seconds.truncatingRemainder(dividingBy: 60) == 0,
              seconds / 60 >= Double(range.lowerBound), seconds / 60 <= Double(range.upperBound) else {
            throw PresetError("\(option: name) must be a whole number of minutes from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return Int(seconds / 60)
    }

    /// One of `choices`.
    func choice(_ name: String, _ choices: [String]) throws(PresetError) -> String {
        let text = raw(name)
        guard choices.contains(text) else {
            throw PresetError("\(option: name) must be \(choices.dropLast().joined(separator: ", ")) or \(choices.last!), not '\(text)'")
        }
        return text
    }

    /// A number in `range`.
    func number(_ name: String, in range: ClosedRange<Double>) throws(PresetError) -> Double {
        let text = raw(name)
        guard let v = Double(text), range.contains(v) else {
            throw PresetError("\(option: name) must be a number from \(SessionTime.format(number: range.lowerBound)) to \(SessionTime.format(number: range.upperBound)), not '\(text)'")
        }
        return v
    }

    /// A non-empty line of text.
    func text(_ name: String) throws(PresetError) -> String {
        let t = raw(name).trimmingWhitespace()
        guard !t.isEmpty, t.count <= 60 else { throw PresetError("\(option: name) must be 1 to 60 characters") }
        return t
    }
}

