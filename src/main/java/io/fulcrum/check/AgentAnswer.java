package io.fulcrum.check;

import java.util.regex.Pattern;

/**
 * An agent's answer (configuration.txt 5.2, "agent-check"): words separated by spaces, tabs or commas, in
 * any order; a weight "75%", an admin state ("ready", "drain", "maint"), an operational state ("up", or
 * "down"/"fail"/"stopped" with an optional "#description"), "maxconn:N" (no per-server maxconn yet: unused).
 *
 * @param weightPercent -1 when not given
 * @param admin         null when not given
 * @param state         "up", "down", "fail" or "stopped", null when not given
 * @param stateText     the state word as the log shows it
 */
record AgentAnswer(int weightPercent, String admin, String state, String stateText) {

    /** The rule that reads an agent's line (up to its first CR or LF). */
    static final CheckRule.Expect READ = new CheckRule.Expect(CheckRule.Kind.RSTRING, false, "line", Pattern.compile("[\r\n]"), null, null, -1,
            null, c -> ProtocolChecks.firstLine(c.answer()), c -> ProtocolChecks.firstLine(c.answer()), null, null, null, true, null, null, null);

    static AgentAnswer parse(String line) {
        int weight = -1;
        String admin = null;
        String state = null;
        String text = null;
        for (String w : line.split("[ \t,]+")) {
            String word = w.toLowerCase(java.util.Locale.ROOT);
            if (word.matches("\\d+%")) {
                weight = Integer.parseInt(word.substring(0, word.length() - 1));
            } else if (word.equals("ready") || word.equals("drain") || word.equals("maint")) {
                admin = word;
            } else if (word.equals("up")) {
                state = "up";
                text = "up";
            } else if (word.startsWith("down") || word.startsWith("fail") || word.startsWith("stopped")) {
                int hash = w.indexOf('#');
                state = hash < 0 ? word : word.substring(0, hash);
                text = w;
            }
        }
        return new AgentAnswer(weight, admin, state, text);
    }
}
