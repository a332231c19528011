package io.fulcrum.stick;

import io.fulcrum.sample.Sample;

/**
 * What the {@code sc_*}, {@code src_*} fetches and the {@code table_*} converters read (or change) in an entry, by the
 * name they share after their prefix ({@code conn_cnt}, {@code inc_gpc0}...), with HAProxy's results: 0 for a key
 * that has no entry, no sample when the table does not store the data.
 */
enum Counter {
    CONN_CNT("conn_cnt", DataType.CONN_CNT), CONN_CUR("conn_cur", DataType.CONN_CUR), CONN_RATE("conn_rate", DataType.CONN_RATE),
    SESS_CNT("sess_cnt", DataType.SESS_CNT), SESS_RATE("sess_rate", DataType.SESS_RATE),
    HTTP_REQ_CNT("http_req_cnt", DataType.HTTP_REQ_CNT), HTTP_REQ_RATE("http_req_rate", DataType.HTTP_REQ_RATE),
    HTTP_ERR_CNT("http_err_cnt", DataType.HTTP_ERR_CNT), HTTP_ERR_RATE("http_err_rate", DataType.HTTP_ERR_RATE),
    HTTP_FAIL_CNT("http_fail_cnt", DataType.HTTP_FAIL_CNT), HTTP_FAIL_RATE("http_fail_rate", DataType.HTTP_FAIL_RATE),
    BYTES_IN_RATE("bytes_in_rate", DataType.BYTES_IN_RATE), BYTES_OUT_RATE("bytes_out_rate", DataType.BYTES_OUT_RATE),
    KBYTES_IN("kbytes_in", DataType.BYTES_IN_CNT), KBYTES_OUT("kbytes_out", DataType.BYTES_OUT_CNT),
    GPC0_RATE("gpc0_rate", DataType.GPC0_RATE), GPC1_RATE("gpc1_rate", DataType.GPC1_RATE), GPC_RATE("gpc_rate", DataType.GPC_RATE),
    GET_GPC0("get_gpc0", DataType.GPC0), GET_GPC1("get_gpc1", DataType.GPC1), GET_GPC("get_gpc", DataType.GPC),
    GET_GPT0("get_gpt0", DataType.GPT0), GET_GPT("get_gpt", DataType.GPT),
    INC_GPC0("inc_gpc0", DataType.GPC0), INC_GPC1("inc_gpc1", DataType.GPC1), INC_GPC("inc_gpc", DataType.GPC),
    CLR_GPC0("clr_gpc0", DataType.GPC0), CLR_GPC1("clr_gpc1", DataType.GPC1), CLR_GPC("clr_gpc", DataType.GPC),
    SERVER_ID("server_id", DataType.SERVER_ID), TRACKERS("trackers", null), UPDT_CONN_CNT("updt_conn_cnt", DataType.CONN_CNT);

    private final String text;
    private final DataType type;

    Counter(String text, DataType type) {
        this.text = text;
        this.type = type;
    }

    String text() {
        return text;
    }

    /** Whether it takes an element index first ({@code sc_get_gpc(<idx>,<sc>)}). */
    boolean indexed() {
        return type != null && type.isArray();
    }

    /** Whether the src_ fetch creates the client's entry (HAProxy's src_inc_*, src_clr_*, src_updt_conn_cnt). */
    boolean creates() {
        return name().startsWith("INC_") || name().startsWith("CLR_") || this == UPDT_CONN_CNT;
    }

    /** The rate that moves with a counter incremented here. */
    private DataType rate() {
        return switch (this) {
            case INC_GPC0 -> DataType.GPC0_RATE;
            case INC_GPC1 -> DataType.GPC1_RATE;
            case INC_GPC -> DataType.GPC_RATE;
            case UPDT_CONN_CNT -> DataType.CONN_RATE;
            default -> null;
        };
    }

    /** Reads (or updates) element {@code idx} of entry {@code e} (null: no entry) of {@code t} into {@code out}. */
    boolean apply(StickTable t, Entry e, int idx, Sample out) {
        if (e == null) {
            return out.setSint(0);
        }
        if (this == TRACKERS) {
            return out.setSint(e.refs.get());
        }
        DataType rate = rate();
        boolean counts = t.holds(type, idx);
        if (!counts && (rate == null || !t.holds(rate, idx))) {
            return false;
        }
        if (rate != null) {
            t.add(e, rate, idx, 1);
            t.add(e, type, idx, 1);
        }
        long v = counts ? t.get(e, type, idx) : 0;
        if (name().startsWith("CLR_")) {
            t.set(e, type, idx, 0);
        }
        return out.setSint(this == KBYTES_IN || this == KBYTES_OUT ? v >> 10 : v);
    }
}
