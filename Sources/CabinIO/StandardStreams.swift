import Glibc

/// The process's stdin and stderr as bytes, unbuffered: what the command-line tool reads
/// documents from (`-`) and writes its one-line errors and progress to.
///
/// Thread: control thread only (blocking).
public enum StandardStreams {
    /// Writes all of `text` to stderr now (short writes and `EINTR` retried); a closed or
    /// broken stderr is ignored. The corresponding C function is `write`.
    public static func writeError(_ text: String) {
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

    /// stdin to its end. The corresponding C function is `read`.
    public static func readInput() throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = try checkedCall("read stdin") { read(STDIN_FILENO, &chunk, chunk.count) }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}
