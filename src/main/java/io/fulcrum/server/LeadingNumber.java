package io.fulcrum.server;

/**
 * What C's {@code strtol(text, &end, 10)} reads at the start of a CLI or agent word, the way HAProxy's run-time
 * changes of a server read their numbers: blanks, a sign, decimal digits (saturated), and the {@code rest} after them.
 */
record LeadingNumber(long value, String rest) {

    /** The number at the start of {@code text}, or null when it has no digits there. */
    static LeadingNumber read(String text) {
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        int signAt = i;
        if (i < text.length() && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            i++;
        }
        int digits = i;
        while (i < text.length() && Character.isDigit(text.charAt(i))) {
            i++;
        }
        if (i == digits) {
            return null;
        }
        String number = text.substring(signAt, i);
        long value;
        try {
            value = Long.parseLong(number);
        } catch (NumberFormatException e) {
            value = number.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return new LeadingNumber(value, text.substring(i));
    }
}
