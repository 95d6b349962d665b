import Glibc
import OpenGuard
import Testing

/// Inside a guard, `open` (the C library symbol libdw calls) refuses a FIFO or a device at
/// once; outside one it is the C library's `open`, FIFOs and devices included.
@Suite struct OpenGuardTests {
    func scratchFIFO() -> String {
        var template = Array("/tmp/devkit-open-guard-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let fifo = directory + "/named-by-a-core"
        #expect(mkfifo(fifo, 0o600) == 0)
        return fifo
    }

    @Test func aFIFOIsRefusedInsideAGuardWithoutBlocking() {
        let fifo = scratchFIFO()
        defer { unlink(fifo); rmdir(String(fifo.dropLast("/named-by-a-core".count))) }
        open_guard_enter()
        let fd = open(fifo, O_RDONLY)
        let error = errno
        open_guard_leave()
        #expect(fd == -1)
        #expect(error == ENXIO)
        // Outside the guard the C library's behaviour is back (non-blocking open of a FIFO
        // succeeds, as it always does).
        let plain = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(plain >= 0)
        close(plain)
    }

    @Test func devicesAndDirectoriesAreRefusedRegularFilesOpenBlocking() {
        open_guard_enter()
        defer { open_guard_leave() }
        #expect(open("/dev/zero", O_RDONLY) == -1 && errno == ENXIO)
        #expect(open("/tmp", O_RDONLY) == -1 && errno == EISDIR)
        let fd = open("/proc/self/exe", O_RDONLY)
        #expect(fd >= 0)
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK == 0)
        close(fd)
    }

    @Test func guardsNestAndCreatingStillTakesAMode() {
        open_guard_enter()
        open_guard_enter()
        open_guard_leave()
        #expect(open("/dev/null", O_RDONLY) == -1)
        open_guard_leave()
        let devNull = open("/dev/null", O_RDONLY)
        #expect(devNull >= 0)
        close(devNull)
        let path = "/tmp/devkit-open-guard-create-\(getpid())"
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o640)
        #expect(created >= 0)
        var info = stat()
        #expect(fstat(created, &info) == 0 && info.st_mode & 0o777 == 0o640 & ~currentUmask())
        close(created)
        unlink(path)
    }

    func currentUmask() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }
}
