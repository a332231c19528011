package io.fulcrum.master;

import java.nio.file.Path;

/** A worker process as its master sees it. Written on the master's thread, read by its CLI sessions. */
final class Worker {
    final Process process;
    final long startMillis = System.currentTimeMillis();
    /** Reloads this worker survived (HAProxy's {@code <reloads>} column of {@code show proc}). */
    volatile int reloads;
    /** Serving: it said so on the master's channel. */
    volatile boolean ready;
    /** A newer worker took over: it finishes its connections and leaves ("old workers"). */
    volatile boolean leaving;

    Worker(Process process) {
        this.process = process;
    }

    long pid() {
        return process.pid();
    }

    /** The worker's private CLI socket in the master's directory of channels. */
    static Path cli(Path channels, long pid) {
        return channels.resolve(pid + ".sock");
    }

    /** How HAProxy's master words an exit status: "Exit", or the name of the signal that ended the process. */
    static String reason(int status) {
        if (status < 128) {
            return "Exit";
        }
        return switch (status - 128) {
            case 1 -> "Hangup";
            case 2 -> "Interrupt";
            case 3 -> "Quit";
            case 6 -> "Aborted";
            case 9 -> "Killed";
            case 11 -> "Segmentation fault";
            case 13 -> "Broken pipe";
            case 15 -> "Terminated";
            default -> "Unknown signal " + (status - 128);
        };
    }
}
