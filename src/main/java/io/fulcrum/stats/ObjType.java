package io.fulcrum.stats;

/** The kinds of rows of {@code show stat}: their letter in typed output and their number in the "type" column. */
public enum ObjType {
    FRONTEND('F', "Frontend"),
    BACKEND('B', "Backend"),
    SERVER('S', "Server"),
    LISTENER('L', "Listener");

    private final char letter;
    private final String jsonName;

    ObjType(char letter, String jsonName) {
        this.letter = letter;
        this.jsonName = jsonName;
    }

    public char letter() {
        return letter;
    }

    /** The "objType" of JSON output. */
    public String jsonName() {
        return jsonName;
    }

    /** The "type" column: 0 frontend, 1 backend, 2 server, 3 listener. */
    public int number() {
        return ordinal();
    }

    static ObjType of(char letter) {
        for (ObjType t : values()) {
            if (t.letter == letter) {
                return t;
            }
        }
        throw new IllegalArgumentException("no object type '" + letter + "'");
    }
}
