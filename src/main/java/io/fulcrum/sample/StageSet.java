package io.fulcrum.sample;

/**
 * Where a rule, condition or value of a section is evaluated: one {@link Stage}, or in a section that is a frontend
 * and a backend at once ({@code listen}, {@code defaults}) the frontend's stage and the backend's. HAProxy checks a
 * fetch against such a set (its "where" mask, built from the proxy's capabilities): the fetch is usable when its data
 * exists at one of the stages, so a listen section's http-request rule may read {@code be_name}.
 *
 * @param bits the {@link Stage#bit()}s of the stages
 */
public record StageSet(int bits) {

    public static StageSet of(Stage stage) {
        return new StageSet(stage.bit());
    }

    /** {@code fe} in a section with a frontend side, {@code be} in one with a backend side, both in one with both. */
    public static StageSet of(boolean frontend, Stage fe, boolean backend, Stage be) {
        return new StageSet((frontend ? fe.bit() : 0) | (backend ? be.bit() : 0));
    }

    /** True when an expression usable at {@code stages} (its {@link Stage} bits) can be evaluated at one of these. */
    public boolean allows(int stages) {
        return (stages & bits) != 0;
    }

    public boolean has(Stage stage) {
        return (bits & stage.bit()) != 0;
    }

    /** The stage HAProxy's messages name: the first of the set in the order a stream goes through them. */
    public Stage first() {
        return Stage.values()[Integer.numberOfTrailingZeros(bits)];
    }

    @Override
    public String toString() {
        return first().toString();
    }
}
