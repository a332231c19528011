package io.fulcrum.runtime;

import io.fulcrum.cfg.Diagnostics;
import sun.misc.Signal;

import java.util.ArrayList;
import java.util.List;

/** HAProxy's signals (management.txt section 4), and the {@code -sf}/{@code -st} hand-over to older processes. */
public final class Signals {
    private Signals() {
    }

    private static final List<String> NAMES = List.of("USR1", "TERM", "INT", "TTOU", "TTIN", "HUP");
    /** Signals received before {@link #install}, in order; guarded by the class lock. */
    private static final List<String> PENDING = new ArrayList<>();
    private static Fulcrum target;
    private static boolean caught;

    /**
     * Before the listeners are bound: from now on HAProxy's signals are caught, and those that arrive while
     * the process starts are acted upon once it has started ({@link #install}). Without this, a signal
     * sent as soon as the port accepts connections could meet the JVM's default action (SIGTTOU stops
     * the process, SIGUSR1 and SIGHUP kill it).
     */
    public static synchronized void early() {
        caught = true;
        for (String name : NAMES) {
            // Signal handlers run on a JVM signal thread; the actions are thread-safe.
            Signal.handle(new Signal(name), s -> received(name));
        }
    }

    /**
     * USR1 soft stop, TERM and INT immediate stop (exit status 0), TTOU/TTIN pause and resume the
     * listeners, HUP dumps the server states. Acts on the signals received since {@link #early}.
     */
    public static void install(Fulcrum fulcrum) {
        List<String> missed;
        synchronized (Signals.class) {
            if (!caught) {
                early();
            }
            target = fulcrum;
            missed = List.copyOf(PENDING);
            PENDING.clear();
        }
        missed.forEach(name -> act(fulcrum, name));
    }

    private static void received(String name) {
        Fulcrum f;
        synchronized (Signals.class) {
            f = target;
            if (f == null) {
                PENDING.add(name);
                return;
            }
        }
        act(f, name);
    }

    private static void act(Fulcrum fulcrum, String name) {
        switch (name) {
            case "USR1" -> fulcrum.softStop();
            case "TERM", "INT" -> fulcrum.hardStop();
            case "TTOU" -> fulcrum.pause();
            case "TTIN" -> fulcrum.resume();
            case "HUP" -> fulcrum.dumpServerStates();
            default -> throw new IllegalArgumentException(name);
        }
    }

    /** After a successful start: {@code -sf} asks the old processes to finish (USR1), {@code -st} to stop (TERM). */
    public static void finishOld(CommandLine cl, Diagnostics diag) {
        send("USR1", cl.finishPids, diag);
        send("TERM", cl.terminatePids, diag);
    }

    private static void send(String signal, List<Long> pids, Diagnostics diag) {
        for (long pid : pids) {
            String failure = LibC.kill(pid, signal);
            if (failure != null) {
                diag.warning("Failed to send signal " + signal + " to old process " + pid + ": " + failure + ".");
            }
        }
    }
}
