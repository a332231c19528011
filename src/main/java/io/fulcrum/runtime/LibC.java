package io.fulcrum.runtime;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;

import java.util.Map;

/**
 * The libc calls the JVM does not offer, through JNA: the identity changes of {@code chroot}, {@code gid} and
 * {@code uid} (glibc applies setgid and setuid to every thread of the process), and signals to other processes, sent
 * with kill(2) itself: no {@code kill} program is started, so a chroot without one does not stop a {@code -sf}; the
 * limit on open files ({@code ulimit-n}); a thread's CPU affinity ({@code cpu-map}) and scheduling policy
 * ({@code sched-batch}); a thread's network namespace ({@code namespace}).
 */
public final class LibC {
    /** The functions used; JNA binds them by name. */
    public interface Calls extends Library {
        int chroot(String path);

        int chdir(String path);

        int getgroups(int size, Pointer list);

        int setgroups(long size, Pointer list);

        int setgid(int gid);

        int setuid(int uid);

        int kill(int pid, int sig) throws LastErrorException;

        int getrlimit(int resource, RLimit limit) throws LastErrorException;

        int setrlimit(int resource, RLimit limit) throws LastErrorException;

        int open(String path, int flags) throws LastErrorException;

        int dup2(int from, int to) throws LastErrorException;

        int close(int fd) throws LastErrorException;

        /** Moves the calling thread into the namespace of {@code fd} ({@code nstype}: which kind, 0 for any). */
        int setns(int fd, int nstype) throws LastErrorException;

        /** {@code cmd} F_GETFL (3) or F_SETFL (4). */
        int fcntl(int fd, int cmd, int arg) throws LastErrorException;

        /** {@code pid} 0: the calling thread; {@code mask}: the CPUs' bits, 64 a word. */
        int sched_setaffinity(int pid, long size, long[] mask) throws LastErrorException;

        /** {@code pid}: a thread's id, 0 the calling one; {@code param}: a {@code struct sched_param} (its priority). */
        int sched_setscheduler(int pid, int policy, int[] param) throws LastErrorException;
    }

    /** C's {@code struct rlimit}: two unsigned longs ({@code RLIM_INFINITY} is -1 here). */
    @Structure.FieldOrder({"cur", "max"})
    public static final class RLimit extends Structure {
        public long cur;
        public long max;

        public RLimit() {
        }

        public RLimit(long cur, long max) {
            this.cur = cur;
            this.max = max;
        }
    }

    /** Linux's number of RLIMIT_NOFILE. */
    public static final int RLIMIT_NOFILE = 7;

    /** Linux's number of the SCHED_BATCH policy. */
    private static final int SCHED_BATCH = 3;

    /** Linux's numbers of the signals Fulcrum sends. */
    private static final Map<String, Integer> SIGNALS = Map.of("HUP", 1, "INT", 2, "KILL", 9, "USR1", 10, "USR2", 12,
            "TERM", 15, "TTIN", 21, "TTOU", 22);

    private static Calls calls;

    private LibC() {
    }

    /** The bound functions, loaded on first use (most processes never need them). */
    public static synchronized Calls calls() {
        if (calls == null) {
            calls = Native.load("c", Calls.class);
        }
        return calls;
    }

    /**
     * Binds the calling thread to the CPUs of {@code mask} (bit n of word n / 64: CPU n); a refusal (CPUs the process
     * may not use) is printed and the thread keeps its CPUs, as HAProxy goes on when sched_setaffinity fails.
     */
    public static void bindCallingThread(long[] mask) {
        try {
            calls().sched_setaffinity(0, (long) mask.length * Long.BYTES, mask);
        } catch (LastErrorException e) {
            System.err.println("cpu-map: cannot bind thread " + Thread.currentThread().getName() + ": " + e.getMessage());
        }
    }

    /**
     * Puts thread {@code tid} (the kernel's id of a thread of this process) under Linux's SCHED_BATCH policy: the
     * same share of the CPU and nice, but its wake-ups do not preempt the running task ({@code sched-batch}); a
     * refusal is printed and the thread keeps its policy.
     */
    public static void batch(int tid) {
        try {
            calls().sched_setscheduler(tid, SCHED_BATCH, new int[1]);
        } catch (LastErrorException e) {
            System.err.println("sched-batch: cannot set the policy of thread " + tid + ": " + e.getMessage());
        }
    }

    /** Makes descriptor {@code fd} blocking (clears O_NONBLOCK); false when the system refused. */
    public static boolean makeBlocking(int fd) {
        try {
            int flags = calls().fcntl(fd, 3, 0);
            calls().fcntl(fd, 4, flags & ~04000);
            return true;
        } catch (LastErrorException e) {
            return false;
        }
    }

    /**
     * Points descriptors {@code fds} at /dev/null, as a daemon leaves its terminal: whoever reads what the process
     * started with (a pipe, a shell's command substitution) sees its end. False when the system refused.
     */
    public static boolean toDevNull(int... fds) {
        try {
            int nul = calls().open("/dev/null", 2); // O_RDWR
            for (int fd : fds) {
                calls().dup2(nul, fd);
            }
            calls().close(nul);
            return true;
        } catch (LastErrorException e) {
            return false;
        }
    }

    /** Sends signal {@code name} ("USR1", "TERM" ...) to process {@code pid}; null when sent, else why not. */
    public static String kill(long pid, String name) {
        Integer sig = SIGNALS.get(name);
        if (sig == null) {
            throw new IllegalArgumentException(name);
        }
        try {
            calls().kill(Math.toIntExact(pid), sig);
            return null;
        } catch (LastErrorException e) {
            return e.getMessage();
        }
    }
}
