package io.fulcrum.runtime;

import io.fulcrum.cli.CliCommand;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.cli.CliException;
import io.fulcrum.cli.CliLevel;
import io.fulcrum.cli.CliRequest;

/**
 * {@code debug dev memstats [reset|all]} (expert mode): HAProxy's memory statistics, one line per place that
 * allocates, in its layout (debug.c's dump of DEBUG_MEM_STATS builds; Debian's haproxy 2.6 is built without it).
 * HAProxy's places are source lines; Fulcrum's are the kinds of connections whose buffers are counted
 * ({@link BufferOwner}), each with one line for the direct buffers and one for the heap ones, named as the pools of
 * {@code show pools}. Only allocations are counted (P_ALLOC); without {@code all}, lines without any are left out.
 */
final class MemStatsCommand {
    private MemStatsCommand() {
    }

    static void register(CliCommands c) {
        c.add("debug dev memstats", "debug dev memstats [reset|all]", "dump/reset memory statistics", CliLevel.OPERATOR,
                CliCommand.Mode.EXPERT, MemStatsCommand::run);
    }

    private static void run(CliRequest r) throws CliException {
        boolean all = false;
        for (int i = 3; i < r.size(); i++) {
            switch (r.arg(i)) {
                case "reset" -> {
                    r.require(CliLevel.ADMIN);
                    BufferOwner.ALL.forEach(BufferOwner::reset);
                    return;
                }
                case "all" -> all = true;
                default -> throw new CliException("Expects either 'reset' or 'all'.\n");
            }
        }
        int width = 0;
        for (BufferOwner o : BufferOwner.ALL) {
            width = Math.max(width, o.name.length() + 1); // HAProxy's first column: the longest name and a space
        }
        StringBuilder b = new StringBuilder();
        for (BufferOwner o : BufferOwner.ALL) {
            line(b, o, BufferOwner.DIRECT, "buf_direct", width, all);
            line(b, o, BufferOwner.HEAP, "buf_heap", width, all);
        }
        r.print(b);
    }

    private static void line(StringBuilder b, BufferOwner o, int slot, String pool, int width, boolean all) {
        long calls = o.total(slot);
        long size = o.total(slot + 1);
        if (calls == 0 && size == 0 && !all) {
            return;
        }
        b.append(String.format("%-" + width + "s%7s  size: %12d  calls: %9d  size/call: %6d %s\n", o.name, "P_ALLOC", size, calls,
                calls == 0 ? 0 : size / calls, pool));
    }
}
