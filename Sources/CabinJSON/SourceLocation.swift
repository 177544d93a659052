/// A position in a source document: byte offset plus 1-based line and column.
///
/// Columns count Unicode scalars from the start of the line (so a `é` is one column), which
/// is what editors and compilers show. Lines end at `\n`, `\r\n` or a lone `\r`.
///
/// Thread: a value type; any thread.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Byte offset from the start of the document (0-based, in UTF-8 bytes, BOM included).
    public var offset: Int
    /// Line number, starting at 1.
    public var line: Int
    /// Column number in Unicode scalars, starting at 1.
    public var column: Int

    /// Creates a location.
    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The first byte of a document (line 1, column 1).
    public static let start = SourceLocation(offset: 0, line: 1, column: 1)

    /// `LINE:COL`.
    public var description: String { "\(line):\(column)" }

    /// Whether `lhs` comes first in the document (by byte offset).
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.offset < rhs.offset
    }
}
