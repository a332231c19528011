package io.fulcrum.stick;

/**
 * The data a stick-table entry may store ({@code store} of {@code stick-table}), in HAProxy 2.6's order, which is
 * the order {@code show table} prints them in.
 */
public enum DataType {
    SERVER_ID("server_id", Kind.SINT),
    GPT0("gpt0", Kind.UINT),
    GPC0("gpc0", Kind.UINT),
    GPC0_RATE("gpc0_rate", Kind.RATE),
    CONN_CNT("conn_cnt", Kind.UINT),
    CONN_RATE("conn_rate", Kind.RATE),
    CONN_CUR("conn_cur", Kind.UINT),
    SESS_CNT("sess_cnt", Kind.UINT),
    SESS_RATE("sess_rate", Kind.RATE),
    HTTP_REQ_CNT("http_req_cnt", Kind.UINT),
    HTTP_REQ_RATE("http_req_rate", Kind.RATE),
    HTTP_ERR_CNT("http_err_cnt", Kind.UINT),
    HTTP_ERR_RATE("http_err_rate", Kind.RATE),
    BYTES_IN_CNT("bytes_in_cnt", Kind.ULL),
    BYTES_IN_RATE("bytes_in_rate", Kind.RATE),
    BYTES_OUT_CNT("bytes_out_cnt", Kind.ULL),
    BYTES_OUT_RATE("bytes_out_rate", Kind.RATE),
    GPC1("gpc1", Kind.UINT),
    GPC1_RATE("gpc1_rate", Kind.RATE),
    SERVER_KEY("server_key", Kind.DICT),
    HTTP_FAIL_CNT("http_fail_cnt", Kind.UINT),
    HTTP_FAIL_RATE("http_fail_rate", Kind.RATE),
    GPT("gpt", Kind.UINT),
    GPC("gpc", Kind.UINT),
    GPC_RATE("gpc_rate", Kind.RATE);

    /** How a value is kept and printed: HAProxy's std_t_sint/uint/ull/frqp/dict. */
    public enum Kind {
        SINT, UINT, ULL, RATE, DICT
    }

    private final String text;
    private final Kind kind;

    DataType(String text, Kind kind) {
        this.text = text;
        this.kind = kind;
    }

    public String text() {
        return text;
    }

    public Kind kind() {
        return kind;
    }

    /** The array types take an element count ({@code gpc(3)}), and {@code gpc_rate} a period after it. */
    public boolean isArray() {
        return this == GPT || this == GPC || this == GPC_RATE;
    }

    /** The longs an element takes in an entry: a rate keeps its current and previous periods and the current one's start. */
    int width() {
        return kind == Kind.RATE ? 3 : 1;
    }

    /**
     * The array type holding this legacy type's value in a table that stores the array instead (gpc0 and gpc1 are
     * elements 0 and 1 of gpc, gpt0 of gpt, their rates of gpc_rate), as HAProxy 2.6 reads them; null for the others.
     */
    DataType array() {
        return switch (this) {
            case GPC0, GPC1 -> GPC;
            case GPT0 -> GPT;
            case GPC0_RATE, GPC1_RATE -> GPC_RATE;
            default -> null;
        };
    }

    /** The element of {@link #array()} holding this type's value. */
    int arrayIndex() {
        return this == GPC1 || this == GPC1_RATE ? 1 : 0;
    }

    /** The type named {@code name} ("conn_rate"), or null; "server_name" is server_key's older name, as HAProxy 2.6 reads it. */
    public static DataType named(String name) {
        for (DataType t : values()) {
            if (t.text.equals(name)) {
                return t;
            }
        }
        return name.equals("server_name") ? SERVER_KEY : null;
    }
}
