import CabinIO
import Glibc
import Synchronization
import Testing

/// A nice value is per thread on Linux: lowering one thread's priority leaves the others'.
struct ThreadPriorityTests {
    @Test func loweringAThreadLeavesTheOthersAlone() throws {
        let before = ThreadPriority.currentNiceValue
        let seen = Mutex<(Int32, Int32)?>(nil)
        let thread = RealtimeThread(name: "nice-test", realtime: false) { _ in
            let own = ThreadPriority.currentNiceValue
            ThreadPriority.lowerCurrentThread(by: 10)
            seen.withLock { $0 = (own, ThreadPriority.currentNiceValue) }
        }
        try thread.start()
        thread.join()
        let (own, lowered) = try #require(seen.withLock { $0 })
        #expect(own == before)
        #expect(lowered == min(19, before + 10))
        #expect(ThreadPriority.currentNiceValue == before, "the calling thread keeps its priority")
    }
}
