// CabinJSON — JSON with a source location for every value, and the diagnostics that every
// Cabin document reader (sessions, AHAP, .haptic) shares.
//
// A pure module: it imports nothing (not Foundation) and does no I/O. Callers hand it bytes (or a
// `String`) plus a display file name; `CabinPlayback` or the CLI does the reading.
//
// Example:
//
//     var diagnostics = Diagnostics(file: "session.json")
//     let root = JSONParser.parse(Array(text.utf8), options: .lenient, diagnostics: &diagnostics)
//     if let object = root?.object(at: .root, in: &diagnostics),
//        let title = object["title"]?.string(at: JSONPath.root.key("title"), in: &diagnostics) {
//         print(title)
//     }
//     for diagnostic in diagnostics.all { print(diagnostic) }
//     // session.json:3:12: error: duration: expected a string or a number, found true
//
// Thread safety: every type here is a `Sendable` value; every function is pure and may be
// called from any thread except the real-time render thread (they allocate).
