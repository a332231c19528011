package io.fulcrum.sample;

/**
 * The places where an expression can be evaluated (HAProxy's sample check points), in the order a
 * stream goes through them. A fetch is usable at a stage only when its data exists there.
 */
public enum Stage {
    FE_CON_ACC("frontend tcp-request connection rule"),
    FE_SES_ACC("frontend tcp-request session rule"),
    FE_REQ_CNT("frontend tcp-request content rule"),
    FE_HRQ_HDR("frontend http-request header rule"),
    FE_HRQ_BDY("frontend http-request body rule"),
    FE_SET_BCK("frontend use-backend rule"),
    BE_REQ_CNT("backend tcp-request content rule"),
    BE_HRQ_HDR("backend http-request header rule"),
    BE_HRQ_BDY("backend http-request body rule"),
    BE_SET_SRV("backend use-server, balance or stick-match rule"),
    BE_SRV_CON("server source selection"),
    BE_RES_CNT("backend tcp-response content rule"),
    BE_HRS_HDR("backend http-response header rule"),
    BE_HRS_BDY("backend http-response body rule"),
    BE_STO_RUL("backend stick-store rule"),
    FE_RES_CNT("frontend tcp-response content rule"),
    FE_HRS_HDR("frontend http-response header rule"),
    FE_HRS_BDY("frontend http-response body rule"),
    FE_LOG_END("logs"),
    BE_CHK_RUL("backend tcp-check rule"),
    CFG_PARSER("configuration parser"),
    CLI_PARSER("CLI parser");

    private final String description;

    Stage(String description) {
        this.description = description;
    }

    public int bit() {
        return 1 << ordinal();
    }

    @Override
    public String toString() {
        return description;
    }
}
