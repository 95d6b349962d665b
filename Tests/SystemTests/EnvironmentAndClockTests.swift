import Glibc
import Testing
import System

@Suite struct EnvironmentAndClockTests {
    @Test func environmentValues() {
        setenv("DEVKIT_SYSTEM_TEST", "value", 1)
        setenv("DEVKIT_SYSTEM_TEST_EMPTY", "", 1)
        #expect(Environment.value("DEVKIT_SYSTEM_TEST") == "value")
        #expect(Environment.value("DEVKIT_SYSTEM_TEST_EMPTY") == "")
        #expect(Environment.nonEmptyValue("DEVKIT_SYSTEM_TEST_EMPTY") == nil)
        #expect(Environment.value("DEVKIT_SYSTEM_TEST_UNSET_\(getpid())") == nil)
    }

    /// `set` replaces a value, or keeps one already there when not overwriting (how devkit
    /// sets DEBUGINFOD_TIMEOUT without overriding the user's).
    @Test func settingAVariable() {
        let name = "DEVKIT_SYSTEM_TEST_SET_\(getpid())"
        Environment.set(name, to: "first", overwrite: false)
        #expect(Environment.value(name) == "first")
        Environment.set(name, to: "second", overwrite: false)
        #expect(Environment.value(name) == "first")
        Environment.set(name, to: "third")
        #expect(Environment.value(name) == "third")
        unsetenv(name)
    }

    @Test func monotonicClockNeverGoesBack() {
        var last = MonotonicClock.seconds()
        for _ in 0..<1000 {
            let now = MonotonicClock.seconds()
            #expect(now >= last)
            last = now
        }
    }

    @Test func aRegularFileIsNotATerminal() throws {
        let dir = makeScratchDirectory("tty")
        defer { removeTree(dir) }
        let fd = open(dir + "/f", O_CREAT | O_WRONLY, 0o600)
        defer { close(fd) }
        #expect(!Terminal.isTerminal(fd))
    }
}
