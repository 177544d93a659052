extension Duration {
    /// The duration in seconds, as a `Double` (for reports and the C calls that take
    /// microseconds). The one conversion the package uses.
    ///
    /// Thread: any thread.
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
