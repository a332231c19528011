package io.fulcrum.check;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An agent's answer (configuration.txt 5.2, "agent-check"): words separated by spaces, tabs or commas, in
 * any order; a weight "75%", an admin state ("ready", "drain", "maint"), an operational state ("up", "down",
 * "fail", "stopped"), "maxconn:N" (no per-server maxconn yet: unused); a word starting with '#' begins a
 * description that runs to the end of the line. As HAProxy's tcpcheck_agent_expect_reply() reads it.
 *
 * @param weightPercent -1 when not given
 * @param admin         null when not given
 * @param state         "up", "down", "fail" or "stopped", null when not given
 * @param stateText     the state word and what HAProxy adds in brackets ("down (gone away)", "up (junk)")
 */
record AgentAnswer(int weightPercent, String admin, String state, String stateText) {

    /** The rule that reads an agent's line (up to its first CR or LF). */
    static final CheckRule.Expect READ = new CheckRule.Expect(CheckRule.Kind.RSTRING, false, "line", Pattern.compile("[\r\n]"), null, null, -1,
            null, c -> ProtocolChecks.firstLine(c.answer()), c -> ProtocolChecks.firstLine(c.answer()), null, null, null, true, null, null, null);

    /** A '#' that starts a word: the rest of the line is a description. */
    private static final Pattern DESCRIPTION = Pattern.compile("(?:^|[ \t,])#(.*)");

    static AgentAnswer parse(String line) {
        int weight = -1;
        String admin = null;
        String state = null;
        String err = null; // the first word not understood
        String desc = "";
        Matcher hash = DESCRIPTION.matcher(line);
        if (hash.find()) {
            desc = hash.group(1).stripLeading();
            line = line.substring(0, hash.start());
        }
        for (String w : line.split("[ \t,]+")) {
            String word = w.toLowerCase(java.util.Locale.ROOT);
            if (word.matches("\\d+%")) {
                weight = Integer.parseInt(word.substring(0, word.length() - 1));
            } else if (word.equals("ready") || word.equals("drain") || word.equals("maint")) {
                admin = word;
            } else if (word.equals("up") || word.equals("down") || word.equals("fail") || word.equals("stopped")) {
                state = word;
            } else if (!word.isEmpty() && !word.startsWith("maxconn:") && err == null) {
                err = w;
            }
        }
        // HAProxy keeps a down report's description; "up" or no description leaves room for the odd word
        String msg = desc.isEmpty() || "up".equals(state) ? (err != null ? err : desc) : desc;
        String text = state == null ? null : msg.isEmpty() ? state : state + " (" + msg + ")";
        return new AgentAnswer(weight, admin, state, text);
    }
}
