/// Why a stream cannot be played or goes on failing: one line, and whether trying again can help.
package struct RadioFailure: Error, Sendable, CustomStringConvertible {
    package var description: String
    /// Content that will not change by asking again (an HTML page, an unsupported codec).
    var isPermanent = true
}
