package io.fulcrum.cfg;

/** TODO(helper A): placeholder with the API -cc uses; replace with the real implementation. */
public final class Condition {
    private Condition() {
    }

    public static boolean evaluate(String expression, Environment env) throws ConfigException {
        throw new ConfigException("unparsable conditional expression '" + expression + "'");
    }
}
