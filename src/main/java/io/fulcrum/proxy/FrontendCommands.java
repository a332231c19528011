package io.fulcrum.proxy;

import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;
import io.fulcrum.cli.Severity;
import io.fulcrum.listener.Listener;
import io.fulcrum.runtime.Fulcrum;

/**
 * The frontend commands of the CLI: {@code disable|enable|shutdown frontend}, {@code set maxconn
 * frontend|global}, with HAProxy's answers.
 */
final class FrontendCommands {
    private FrontendCommands() {
    }

    static void register(CliCommands c) {
        c.add("disable frontend", "disable frontend <frontend>", "temporarily disable specific frontend", CliLevel.ADMIN, r -> {
            Frontend fe = frontend(r);
            if (fe.shutDown()) {
                throw new CliException("Frontend was previously shut down, cannot disable.\n");
            }
            if (fe.paused()) {
                r.feedback(Severity.NOTICE, "All sockets are already disabled.\n");
                return;
            }
            fe.paused(true);
            listeners(r.process(), fe, true);
        });
        c.add("enable frontend", "enable frontend <frontend>", "re-enable specific frontend", CliLevel.ADMIN, r -> {
            Frontend fe = frontend(r);
            if (fe.shutDown()) {
                throw new CliException("Frontend was previously shut down, cannot enable.\n");
            }
            if (!fe.paused()) {
                r.feedback(Severity.NOTICE, "All sockets are already enabled.\n");
                return;
            }
            fe.paused(false);
            listeners(r.process(), fe, false);
        });
        c.add("shutdown frontend", "shutdown frontend <frontend>", "stop a specific frontend", CliLevel.ADMIN, r -> {
            Frontend fe = frontend(r);
            if (fe.shutDown()) {
                throw new CliException("Frontend was already shut down.\n");
            }
            fe.shutDown(true);
            for (Listener l : r.process().listeners()) {
                if (l.owner().equals(fe.name())) {
                    l.close();
                }
            }
        });
        c.add("set maxconn frontend", "set maxconn frontend <frontend> <value>", "change a frontend's maxconn setting",
                CliLevel.ADMIN, r -> {
                    Frontend fe = frontend(r, 3);
                    if (r.arg(4).isEmpty()) {
                        throw new CliException("Integer value expected.\n");
                    }
                    int v = r.atoi(4);
                    if (v < 0) {
                        throw new CliException("Value out of range.\n");
                    }
                    // 0 admits no connection (new ones wait in the backlog) and show stat says slim 0, as HAProxy
                    fe.limit().limitTo(v);
                });
        c.add("set maxconn global", "set maxconn global <value>", "change the per-process maxconn setting", CliLevel.ADMIN, r -> {
            if (r.arg(3).isEmpty()) {
                throw new CliException("Expects an integer value.\n");
            }
            int v = r.atoi(3);
            int hard = r.process().fds().maxconn();
            if (v > hard) {
                throw new CliException("Value out of range.\n");
            }
            // 0 or less: no limit but the one at start, as HAProxy ("unlimited values")
            r.process().connections().max(v <= 0 ? hard : v);
        });
    }

    private static Frontend frontend(CliRequest r) throws CliException {
        return frontend(r, 2);
    }

    private static Frontend frontend(CliRequest r, int arg) throws CliException {
        if (r.arg(arg).isEmpty()) {
            throw new CliException("A frontend name is expected.\n");
        }
        return r.process().frontends().stream().filter(f -> f.name().equals(r.arg(arg))).findFirst()
                .orElseThrow(() -> new CliException("No such frontend.\n"));
    }

    /**
     * Disables or enables the frontend's listeners (a disabled IP socket refuses connections, as HAProxy's); a socket
     * that cannot be paused or listen again fails the command, with HAProxy's answer.
     */
    private static void listeners(Fulcrum process, Frontend fe, boolean pause) throws CliException {
        boolean failed = false;
        for (Listener l : process.listeners()) {
            if (l.owner().equals(fe.name())) {
                failed |= (pause ? l.disable() : l.resume()) != null;
            }
        }
        if (failed) {
            throw new CliException("Failed to " + (pause ? "pause" : "resume") + " frontend, check logs for precise cause.\n");
        }
    }
}
