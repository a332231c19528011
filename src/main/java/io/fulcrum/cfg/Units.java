package io.fulcrum.cfg;

/** TODO(helper A): placeholder with the API the keyword parsers use; replace with the real implementation. */
public final class Units {
    private Units() {
    }

    /** A time value in milliseconds (default unit ms). */
    public static long time(String text, String keyword) throws ConfigException {
        long mult = 1;
        String digits = text;
        String[][] units = {{"us", "0"}, {"ms", "1"}, {"s", "1000"}, {"m", "60000"}, {"h", "3600000"}, {"d", "86400000"}};
        for (String[] u : units) {
            if (text.endsWith(u[0]) && !(u[0].equals("s") && text.endsWith("ms")) && !(u[0].equals("s") && text.endsWith("us"))) {
                digits = text.substring(0, text.length() - u[0].length());
                mult = Long.parseLong(u[1]);
                break;
            }
        }
        return integer(digits, keyword) * mult;
    }

    /** A whole decimal integer. */
    public static long integer(String text, String keyword) throws ConfigException {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new ConfigException("'" + keyword + "' expects an integer, got '" + text + "'.");
        }
    }
}
