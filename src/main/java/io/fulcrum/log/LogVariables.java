package io.fulcrum.log;

import io.fulcrum.sample.SampleContext;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** The log-format variables Fulcrum knows, by name, and the names HAProxy has that it does not have yet. */
final class LogVariables {
    private LogVariables() {
    }

    /** A variable and whether it exists only in mode http (the "H" of HAProxy's table in section 8.2.6). */
    record Entry(LogVariable variable, boolean httpOnly) {
    }

    /** How the themed variable classes add theirs. */
    @FunctionalInterface
    interface Registrar {
        void add(String name, boolean httpOnly, LogVariable variable);
    }

    /** HAProxy 2.6's variables (configuration.txt 8.2.6). */
    static final Set<String> HAPROXY = Set.of("o", "B", "CC", "CS", "H", "HM", "HP", "HPO", "HQ", "HU", "HV", "ID", "ST", "T",
            "Ta", "Tc", "Td", "Tl", "Th", "Ti", "Tq", "TR", "Tr", "Ts", "Tt", "Tu", "Tw", "U", "ac", "b", "bc", "bi", "bp", "bq",
            "ci", "cp", "f", "fc", "fi", "fp", "ft", "lc", "hr", "hrl", "hs", "hsl", "ms", "pid", "r", "rc", "rt", "s", "sc", "si",
            "sp", "sq", "sslc", "sslv", "t", "tr", "trg", "trl", "ts", "tsc");

    /**
     * The variables that write nothing without captures and then leave a following separator out, as HAProxy's
     * %hr, %hrl, %hs and %hsl (any other variable counts as written even when empty, so two spaces may follow).
     */
    static final Set<String> SILENT_WHEN_NONE = Set.of("hr", "hrl", "hs", "hsl");

    /**
     * The variables known only once the transaction ends (HAProxy's LW_BYTES): a mode tcp format without any is
     * logged as soon as the server connection is established, as HAProxy does (the others, and sample
     * expressions, are known by then).
     */
    static final Set<String> AT_END = Set.of("B", "ID", "Ta", "Tc", "Td", "Th", "Ti", "Tq", "TR", "Tr", "Tt", "Tu", "Tw", "U",
            "ac", "bc", "bq", "fc", "rc", "sc", "sq", "ts");

    private static final Map<String, Entry> VARIABLES = new HashMap<>();

    static {
        Registrar r = (name, http, v) -> VARIABLES.put(name, new Entry(v, http));
        ConnectionVariables.register(r);
        TimeVariables.register(r);
        TransactionVariables.register(r);
    }

    static Entry find(String name) {
        return VARIABLES.get(name);
    }

    /** The '+' of the values that are only lower bounds with {@code option logasap} (%B, %Tt, %Ta, %Tu). */
    static void asap(StringBuilder out, StreamLog l) {
        if (l != null && l.logger().logasap()) {
            out.append('+');
        }
    }

    /** What the transaction recorded, or null when {@code ctx} is not a transaction that logs. */
    static StreamLog log(SampleContext ctx) {
        return ctx instanceof LogContext l ? l.streamLog() : null;
    }
}
