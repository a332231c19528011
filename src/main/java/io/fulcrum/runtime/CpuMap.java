package io.fulcrum.runtime;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;

import java.util.BitSet;

/**
 * {@code cpu-map [auto:]<process-set>[/<thread-set>] <cpu-set>...}: the CPUs each event loop thread may run on, as
 * HAProxy 2.6 parses and combines the lines. A later line replaces what an earlier one set for the same threads; a
 * thread runs on the intersection of its own set and the process's (a line without a thread set), and keeps the
 * CPUs it has when that is empty. Only process 1 exists; the sets of other processes are accepted and ignored.
 */
public final class CpuMap {
    /** HAProxy's LONGBITS: the most processes or threads a set names. */
    private static final int MAX_IDS = 64;
    /** The size of the system's CPU set (CPU_SETSIZE). */
    static final int MAX_CPUS = 1024;

    private BitSet process;
    private final BitSet[] threads = new BitSet[MAX_IDS];

    /** Reads one {@code cpu-map} line. */
    public void parse(ConfigLine l) throws ConfigException {
        if (!l.has(2)) {
            throw new ConfigException("cpu-map expects a process number  ('all', 'odd', 'even', a number from 1 to " + MAX_IDS
                    + " or a range),  followed by a list of CPU ranges with numbers from 0 to " + (MAX_IDS - 1) + ".");
        }
        String first = l.arg(1);
        int slash = first.indexOf('/');
        String procs = slash < 0 ? first : first.substring(0, slash);
        boolean auto = procs.startsWith("auto:");
        long proc = ids(auto ? procs.substring(5) : procs, "cpu-map : ");
        long thread = slash < 0 ? 0 : ids(first.substring(slash + 1), "cpu-map : ");
        BitSet cpus = cpus(l);
        int n = cpus.cardinality();
        if (auto && Long.bitCount(proc) != n && Long.bitCount(thread) != n) {
            throw new ConfigException("cpu-map : PROC/THREAD range and CPU sets must have the same size to be automatically bound");
        }
        if ((proc & 1) == 0) {
            return; // only process 1 runs
        }
        if (thread == 0) {
            process = auto ? single(cpus.nextSetBit(0)) : cpus;
            return;
        }
        int next = 0;
        for (int t = 0; t < MAX_IDS; t++) {
            if ((thread & (1L << t)) == 0) {
                continue;
            }
            if (!auto) {
                threads[t] = cpus;
            } else {
                // Each thread takes the next CPU up; past the last one, a thread gets none.
                int cpu = next < 0 ? -1 : cpus.nextSetBit(next);
                threads[t] = cpu < 0 ? null : single(cpu);
                next = cpu < 0 ? -1 : cpu + 1;
            }
        }
    }

    /** The CPUs of thread {@code index} (from 0) as sched_setaffinity's mask, or null: leave it as it is. */
    public long[] of(int index) {
        BitSet own = index < MAX_IDS ? threads[index] : null;
        BitSet set;
        if (own == null) {
            set = process;
        } else {
            set = (BitSet) own.clone();
            if (process != null) {
                set.and(process);
            }
        }
        return set == null || set.isEmpty() ? null : set.toLongArray();
    }

    private static BitSet single(int cpu) {
        BitSet b = new BitSet();
        b.set(cpu);
        return b;
    }

    /**
     * HAProxy's parse_process_number: all, odd, even, N, N-M, N- (to 64); the bit of N is N - 1. Errors start with
     * {@code prefix} ("cpu-map : ", or what a bind line's {@code thread} says).
     */
    public static long ids(String arg, String prefix) throws ConfigException {
        switch (arg) {
            case "all" -> {
                return ~0L;
            }
            case "odd" -> {
                return 0x5555_5555_5555_5555L;
            }
            case "even" -> {
                return 0xAAAA_AAAA_AAAA_AAAAL;
            }
            default -> {
            }
        }
        int dash = -1;
        for (int i = 0; i < arg.length(); i++) {
            char c = arg.charAt(i);
            if (c == '-' && dash < 0) {
                dash = i;
            } else if (c < '0' || c > '9') {
                throw new ConfigException(prefix + "'" + arg + "' is not a valid number/range.");
            }
        }
        long low = leadingNumber(arg, 0);
        long high = dash < 0 ? low : dash + 1 == arg.length() ? MAX_IDS : leadingNumber(arg, dash + 1);
        if (high < low) {
            long swap = low;
            low = high;
            high = swap;
        }
        if (low < 1 || high > MAX_IDS) {
            throw new ConfigException(prefix + "'" + arg + "' is not a valid number/range. It supports numbers from 1 to "
                    + MAX_IDS + ".");
        }
        long mask = 0;
        for (long i = low; i <= high; i++) {
            mask |= 1L << (i - 1);
        }
        return mask;
    }

    /** HAProxy's parse_cpu_set: each argument a CPU number or range (N, N-M, N- up to the last CPU). */
    private static BitSet cpus(ConfigLine l) throws ConfigException {
        BitSet set = new BitSet();
        for (int i = 2; i < l.size(); i++) {
            String arg = l.arg(i);
            if (arg.isEmpty() || arg.charAt(0) < '0' || arg.charAt(0) > '9') {
                throw new ConfigException("cpu-map : '" + arg + "' is not a CPU range.");
            }
            long low = leadingNumber(arg, 0);
            int dash = arg.indexOf('-');
            long high = dash < 0 ? low : dash + 1 == arg.length() ? MAX_CPUS - 1 : leadingNumber(arg, dash + 1);
            if (high < low) {
                long swap = low;
                low = high;
                high = swap;
            }
            if (high >= MAX_CPUS) {
                throw new ConfigException("cpu-map : supports CPU numbers from 0 to " + (MAX_CPUS - 1) + ".");
            }
            set.set((int) low, (int) high + 1);
        }
        return set;
    }

    /** C's str2uic from {@code from}: the digits there, 0 when none; capped rather than overflowing. */
    private static long leadingNumber(String s, int from) {
        long n = 0;
        for (int i = from; i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9'; i++) {
            n = Math.min(n * 10 + (s.charAt(i) - '0'), Integer.MAX_VALUE);
        }
        return n;
    }
}
