// CabinStudio — `cabin studio`: a local page that shows haptic patterns as timelines,
// plays their sound and reloads them on every save.
//
//   Studio          the patterns' state (read, compiled, rendered on the control thread,
//                   with CabinPlayback's `HapticPatternFile`), the inotify loop
//                   (CabinIO's `FileWatcher`) and the server (Hummingbird on SwiftNIO)
//   StudioPattern   one file's state as the page's JSON (CabinJSON's writer) and WAV
//   StudioFeed      what the server sends: every pattern's JSON and WAV by index, and
//                   the server-sent events that push each new version to the pages
//   StudioPage      the page itself (HTML, CSS and JavaScript; static: every value from a
//                   pattern reaches it as JSON and is put in the page as text)
//   StudioToken     the random token in the page's address
//   StudioSession   a session opened with the patterns: `session plot`'s picture of its
//                   lanes, where its timeline is, and its player (`StudioPlayer`: the
//                   page's transport and volumes, in the control socket's words)
//   StudioServing   the server on a task of its own, for a command whose thread watches
//
// Running a studio:
//
//     import CabinStudio
//
//     let studio = Studio(files: ["Boing.ahap"], options: Studio.Options())
//     studio.loadAll()
//     Task { try await studio.serve(port: 0) { url in print(url) } }
//     try studio.watch(until: { stop }) { report in print(report.line) }
//     studio.close()
//
// The server binds 127.0.0.1 only and answers nothing outside `/TOKEN/` (403). It holds no
// pattern logic: it serves the bytes the control thread made (`StudioFeed`), so a request
// never waits on a read or a render.
//
// Threads: `Studio.loadAll`, `reload` and `watch` belong to one control thread; the
// server runs on SwiftNIO's event loops and Swift's concurrency pool; `StudioFeed` is
// shared between them under a mutex.
