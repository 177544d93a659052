import Glibc

/// Opens an address in the user's browser with `xdg-open`, when there is a desktop to open
/// it on: `DISPLAY` or `WAYLAND_DISPLAY` set, and `xdg-open` on `PATH`. Not waited for
/// (its output is discarded; the child is reaped by `reap`).
///
/// ```swift
/// if let opener = DesktopOpener.open("http://127.0.0.1:8080/…/") { … opener.reap() }
/// ```
///
/// Thread: control thread.
package enum DesktopOpener {
    /// Whether a desktop session is there to open a page on.
    package static var hasDisplay: Bool {
        ["DISPLAY", "WAYLAND_DISPLAY"].contains { (name: String) in getenv(name).map { $0.pointee != 0 } ?? false }
    }

    /// The first executable `xdg-open` on `PATH`, or nil.
    package static var xdgOpen: String? { ChildProcess.executable(named: "xdg-open") }

    /// Starts `xdg-open ADDRESS` when `hasDisplay` and `xdg-open` exists; the child, or nil
    /// when there is nothing to open it with. The address goes through the environment,
    /// never through the shell's parsing.
    package static func open(_ address: String) throws(SystemError) -> ChildProcess? {
        guard hasDisplay, let xdgOpen else { return nil }
        return try ChildProcess(shell: "exec \"$CABIN_XDG_OPEN\" \"$CABIN_OPEN_ADDRESS\" >/dev/null 2>&1 </dev/null",
                                environment: ["CABIN_XDG_OPEN": xdgOpen, "CABIN_OPEN_ADDRESS": address])
    }
}
