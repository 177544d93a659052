import CCabinShims
import Glibc
import Synchronization

/// Single keys from a terminal while a session plays: raw mode (no echo, no line
/// buffering) on stdin when it is a terminal, always restored — at `restore()`, at exit,
/// and by `restoreFromSignalHandler()` (async-signal-safe) before a forced exit.
///
/// Thread: control thread only (except `restoreFromSignalHandler`).
package final class TerminalInput {
    package enum Key: Sendable, Equatable {
        case space, left, right, up, down, plus, minus, quit, other(UInt8)
    }

    /// Whether stdin is a terminal (keys are read only then).
    package let isInteractive: Bool
    private var active = false

    package init() {
        isInteractive = isatty(STDIN_FILENO) == 1
    }

    deinit { restore() }

    /// Raw mode, keeping Ctrl-C as SIGINT. The corresponding C functions are `tcgetattr`
    /// and `tcsetattr`.
    package func enableRawMode() {
        guard isInteractive, !active else { return }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        TerminalInput.savedState = saved
        TerminalInput.hasSavedState = true
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 0   // VMIN
        raw.c_cc.5 = 0   // VTIME
        TerminalInput.rawState = raw
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        active = true
        atexit { TerminalInput.restoreFromSignalHandler() }
        TerminalInput.installJobControl()
    }

    /// Ctrl-Z and `fg`: the terminal is given back as it was before the process stops
    /// (SIGTSTP), and raw mode comes back when it continues (SIGCONT), with `resized` set
    /// so the caller redraws. The corresponding C functions are `sigaction` and `raise`.
    private static func installJobControl() {
        Signals.handle([SIGTSTP]) { _ in
            TerminalInput.restoreFromSignalHandler()
            signal(SIGTSTP, SIG_DFL)
            raise(SIGTSTP)   // stops here; SIGCONT resumes after this line
        }
        Signals.handle([SIGCONT]) { _ in
            var raw = TerminalInput.rawState
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
            TerminalInput.resized.store(true, ordering: .relaxed)
            TerminalInput.installJobControl()
        }
    }

    /// Set when the terminal's size changed (SIGWINCH) or the process came back to the
    /// foreground; the caller redraws and clears it.
    package static let resized = Atomic<Bool>(false)

    /// Watches for terminal resizes (`resized`). The corresponding C function is `sigaction`.
    package static func watchResizes() {
        Signals.handle([SIGWINCH]) { _ in TerminalInput.resized.store(true, ordering: .relaxed) }
    }

    /// The width of the terminal on standard output in columns, or nil when it is not a
    /// terminal. The corresponding C function is `ioctl(TIOCGWINSZ)`.
    package static var columns: Int? {
        let n = Int(cabin_terminal_columns(STDOUT_FILENO))
        return n > 0 ? n : nil
    }

    /// The height of the terminal on standard output in rows, or nil when it is not a
    /// terminal (or does not say). The corresponding C function is `ioctl(TIOCGWINSZ)`.
    package static var rows: Int? {
        let n = Int(cabin_terminal_rows(STDOUT_FILENO))
        return n > 0 ? n : nil
    }

    /// Puts the terminal back as it was.
    package func restore() {
        guard active else { return }
        TerminalInput.restoreFromSignalHandler()
        active = false
    }

    /// Restores the saved terminal state; safe inside a signal handler.
    package static func restoreFromSignalHandler() {
        guard hasSavedState else { return }
        var state = savedState
        tcsetattr(STDIN_FILENO, TCSANOW, &state)
    }

    nonisolated(unsafe) static var savedState = termios()
    nonisolated(unsafe) static var rawState = termios()
    nonisolated(unsafe) static var hasSavedState = false

    /// Waits up to `timeoutMilliseconds` for keys and returns those pressed.
    /// The corresponding C functions are `poll` and `read`.
    package func readKeys(timeoutMilliseconds: Int32) -> [Key] {
        guard isInteractive else {
            _ = poll(nil, 0, timeoutMilliseconds)
            return []
        }
        var pfd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, timeoutMilliseconds) > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = read(STDIN_FILENO, &bytes, bytes.count)
        guard n > 0 else { return [] }
        return TerminalInput.decode(Array(bytes.prefix(n)))
    }

    /// Bytes to keys: arrows arrive as `ESC [ A…D`.
    package static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                switch bytes[i + 2] {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                default: keys.append(.other(bytes[i + 2]))
                }
                i += 3
                continue
            }
            switch b {
            case UInt8(ascii: " "): keys.append(.space)
            case UInt8(ascii: "+"), UInt8(ascii: "="): keys.append(.plus)
            case UInt8(ascii: "-"), UInt8(ascii: "_"): keys.append(.minus)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): keys.append(.quit)
            default: keys.append(.other(b))
            }
            i += 1
        }
        return keys
    }
}
