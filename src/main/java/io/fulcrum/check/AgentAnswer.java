package io.fulcrum.check;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An agent's answer (configuration.txt 5.2, "agent-check"): words separated by spaces, tabs or commas, in
 * any order; a weight "75%", an admin state ("ready", "drain", "maint"), an operational state ("up", "down",
 * "fail", "stopped"), "maxconn:N"; a word starting with '#' begins a description that runs to the end of the line.
 * As HAProxy's tcpcheck_agent_expect_reply() reads it.
 *
 * @param weightPercent -1 when not given
 * @param admin         null when not given
 * @param state         "up", "down", "fail" or "stopped", null when not given
 * @param maxconn       what follows "maxconn:", null when not given
 * @param odd           the first word not understood, or null
 * @param description   what follows '#', or empty
 */
record AgentAnswer(int weightPercent, String admin, String state, String maxconn, String odd, String description) {

    /** The rule that reads an agent's line (up to its first CR or LF). */
    static final CheckRule.Expect READ = new CheckRule.Expect(CheckRule.Kind.RSTRING, false, "line", Pattern.compile("[\r\n]"), null, null, -1,
            null, c -> ProtocolChecks.firstLine(c.answer()), c -> ProtocolChecks.firstLine(c.answer()), null, null, null, true, null, null, null);

    /** A '#' that starts a word: the rest of the line is a description. */
    private static final Pattern DESCRIPTION = Pattern.compile("(?:^|[ \t,])#(.*)");

    static AgentAnswer parse(String line) {
        int weight = -1;
        String admin = null;
        String state = null;
        String maxconn = null;
        String odd = null;
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
            } else if (word.startsWith("maxconn:")) {
                maxconn = w.substring("maxconn:".length());
            } else if (!word.isEmpty() && odd == null) {
                odd = w;
            }
        }
        return new AgentAnswer(weight, admin, state, maxconn, odd, desc);
    }

    /**
     * What the agent check reports once the answer is applied ({@code warning}: what applying it complained of, or
     * null): "via agent : " and the state, with in brackets the description, or for "up" or without one the odd word,
     * else the warning; without a state, the odd word or else the warning; null when there is nothing to say.
     */
    String report(String warning) {
        if (state != null) {
            String msg = description.isEmpty() || state.equals("up") ? (odd != null ? odd : warning != null ? warning : description) : description;
            return "via agent : " + (msg.isEmpty() ? state : state + " (" + msg + ")");
        }
        if (odd != null) {
            return "agent reports an error : " + odd;
        }
        return warning == null ? null : "agent warns : " + warning;
    }
}
