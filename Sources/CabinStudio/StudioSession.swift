/// A session opened in the studio (`cabin studio drive.json`, `--preset NAME`): its lanes as
/// `cabin session plot` draws them — that command's SVG, made once at the start — under its
/// title. The page shows the picture (`session.svg`, an image: nothing in it runs) and the
/// title as text (`session.json`).
///
/// Thread: a value type; any thread.
public struct StudioSession: Sendable {
    /// The session's title (or its file's name, or the preset's).
    public var title: String
    /// `session plot`'s picture of it.
    public var svg: String

    public init(title: String, svg: String) {
        self.title = title
        self.svg = svg
    }
}
