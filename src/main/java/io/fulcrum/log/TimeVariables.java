package io.fulcrum.log;

import java.util.function.ToLongFunction;

/** Log variables of dates (%t, %T, %tr...) and timers (%Tw, %Tc, %Tt... of section 8.4), in milliseconds. */
final class TimeVariables {
    private TimeVariables() {
    }

    /** Writes a date, in one of {@link LogDates}' forms. */
    @FunctionalInterface
    private interface DateForm {
        void append(StringBuilder out, long epochMillis);
    }

    static void register(LogVariables.Registrar r) {
        date(r, "t", false, false, LogDates::accept);
        date(r, "T", false, false, (out, ms) -> LogDates.withZone(out, ms, true));
        date(r, "Tl", false, false, (out, ms) -> LogDates.withZone(out, ms, false));
        date(r, "tr", true, true, LogDates::accept);
        date(r, "trg", true, true, (out, ms) -> LogDates.withZone(out, ms, true));
        date(r, "trl", true, true, (out, ms) -> LogDates.withZone(out, ms, false));
        date(r, "ms", false, false, (out, ms) -> LogDates.pad(out, Math.floorMod(ms, 1000), 3));
        r.add("Ts", false, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            LogText.number(out, (l == null ? System.currentTimeMillis() : l.acceptMillis) / 1000, f, 8);
        });
        timer(r, "Th", false, StreamLog::th);
        timer(r, "Ti", true, StreamLog::ti);
        timer(r, "TR", true, StreamLog::tR);
        timer(r, "Tq", true, StreamLog::tq);
        timer(r, "Tw", false, StreamLog::tw);
        timer(r, "Tc", false, StreamLog::tc);
        timer(r, "Tr", true, StreamLog::tr);
        asapTimer(r, "Ta", true, StreamLog::ta);
        asapTimer(r, "Tt", false, StreamLog::tt);
        timer(r, "Td", false, StreamLog::td);
        asapTimer(r, "Tu", false, StreamLog::tu);
    }

    /**
     * @param request the date of the request's first byte rather than the accept date
     */
    private static void date(LogVariables.Registrar r, String name, boolean httpOnly, boolean request, DateForm form) {
        r.add(name, httpOnly, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            form.append(out, l == null ? System.currentTimeMillis() : request ? l.requestMillis() : l.acceptMillis);
        });
    }

    private static void timer(LogVariables.Registrar r, String name, boolean httpOnly, ToLongFunction<StreamLog> value) {
        timer(r, name, httpOnly, false, value);
    }

    /** A timer that goes on after a {@code logasap} line: written with a '+' when the frontend logs so. */
    private static void asapTimer(LogVariables.Registrar r, String name, boolean httpOnly, ToLongFunction<StreamLog> value) {
        timer(r, name, httpOnly, true, value);
    }

    private static void timer(LogVariables.Registrar r, String name, boolean httpOnly, boolean asap, ToLongFunction<StreamLog> value) {
        r.add(name, httpOnly, (ctx, out, f) -> {
            StreamLog l = LogVariables.log(ctx);
            if (asap) {
                LogVariables.asap(out, l);
            }
            out.append(l == null ? -1 : value.applyAsLong(l));
        });
    }
}
