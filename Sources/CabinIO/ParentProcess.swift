import Glibc

/// The process that started this one, watched: `hasEnded` once it is gone (this process is
/// then reparented, to init or a subreaper, and its parent pid changes). Polled from a
/// control loop (`cabin play --exit-with-parent` every ≤ 50 ms): a spawned player ends with
/// the app that spawned it, however that app died. The corresponding C function is `getppid`.
///
/// Thread: any (it only reads the process's parent pid).
package struct ParentProcess: Sendable {
    /// The parent's pid when watching began.
    package let pid: Int32

    package init() { pid = getppid() }

    /// True once the parent watched has ended.
    package var hasEnded: Bool { getppid() != pid }
}
