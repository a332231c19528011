package io.fulcrum.runtime;

import io.fulcrum.cfg.Diagnostics;
import sun.misc.Signal;

import java.io.IOException;
import java.util.List;

/** HAProxy's signals (management.txt section 4), and the {@code -sf}/{@code -st} hand-over to older processes. */
public final class Signals {
    private Signals() {
    }

    /**
     * USR1 soft stop, TERM and INT immediate stop (exit status 0), TTOU/TTIN pause and resume the
     * listeners, HUP dumps the server states.
     */
    public static void install(Fulcrum fulcrum) {
        handle("USR1", fulcrum::softStop);
        handle("TERM", fulcrum::hardStop);
        handle("INT", fulcrum::hardStop);
        handle("TTOU", fulcrum::pause);
        handle("TTIN", fulcrum::resume);
        handle("HUP", fulcrum::dumpServerStates);
    }

    private static void handle(String name, Runnable action) {
        // Signal handlers run on the JVM's signal dispatcher thread; the actions are thread-safe.
        Signal.handle(new Signal(name), s -> action.run());
    }

    /** After a successful start: {@code -sf} asks the old processes to finish (USR1), {@code -st} to stop (TERM). */
    public static void finishOld(CommandLine cl, Diagnostics diag) {
        send("USR1", cl.finishPids, diag);
        send("TERM", cl.terminatePids, diag);
    }

    private static void send(String signal, List<Long> pids, Diagnostics diag) {
        for (long pid : pids) {
            try {
                Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
                kill.getInputStream().readAllBytes();
                if (kill.waitFor() != 0) {
                    diag.warning("Failed to send signal " + signal + " to old process " + pid + ".");
                }
            } catch (IOException e) {
                diag.warning("Failed to send signal " + signal + " to old process " + pid + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
