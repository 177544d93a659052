import Glibc

/// The process's stderr as bytes, unbuffered: where the command-line tool writes its
/// one-line errors and progress (documents from stdin: `DocumentFile.read("-")`).
///
/// Thread: control thread only (blocking).
package enum StandardStreams {
    /// Writes all of `text` to stderr now (short writes and `EINTR` retried); a closed or
    /// broken stderr is ignored. The corresponding C function is `write`.
    package static func writeError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
