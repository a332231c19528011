package io.fulcrum.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What the part of a stats request after the stats URI asks for, read as HAProxy reads it. */
class StatsQueryTest {

    @Test
    void plainPageByDefault() {
        StatsQuery q = StatsQuery.parse("", true);
        assertThat(q.format()).isEqualTo(StatsQuery.Format.HTML);
        assertThat(q.hideDown() || q.noMaint() || q.noRefresh()).isFalse();
        assertThat(q.status()).isNull();
        assertThat(q.scope()).isEmpty();
    }

    @Test
    void optionsAnywhereAndLaterFormatsWin() {
        StatsQuery q = StatsQuery.parse(";up;norefresh;no-maint;csv", true);
        assertThat(q.hideDown()).isTrue();
        assertThat(q.noRefresh()).isTrue();
        assertThat(q.noMaint()).isTrue();
        assertThat(q.format()).isEqualTo(StatsQuery.Format.CSV);
        // HAProxy tests csv, typed, json, json-schema in this order: the last found wins, whatever the URI's order.
        assertThat(StatsQuery.parse(";json;csv", false).format()).isEqualTo(StatsQuery.Format.JSON);
        assertThat(StatsQuery.parse(";typed;csv", false).format()).isEqualTo(StatsQuery.Format.TYPED);
        assertThat(StatsQuery.parse(";json-schema", false).format()).isEqualTo(StatsQuery.Format.JSON_SCHEMA);
        // ;norefresh means something only when the page refreshes
        assertThat(StatsQuery.parse(";norefresh", false).noRefresh()).isFalse();
    }

    @Test
    void statusCodes() {
        assertThat(StatsQuery.parse(";st=DONE", false).status()).isEqualTo(StatsStatus.DONE);
        assertThat(StatsQuery.parse(";st=EXCD;up", false).status()).isEqualTo(StatsStatus.EXCD);
        assertThat(StatsQuery.parse(";st=WHAT", false).status()).isEqualTo(StatsStatus.UNKN);
        assertThat(StatsQuery.parse(";st=DON", false).status()).as("too short to be read").isNull();
    }

    @Test
    void scopeIsAShortNameEndedBySeparators() {
        assertThat(StatsQuery.parse("?scope=back;up", false).scope()).isEqualTo("back");
        assertThat(StatsQuery.parse("?scope=a.b-c_d:e&x=1", false).scope()).isEqualTo("a.b-c_d:e");
        assertThat(StatsQuery.parse("?scope=" + "x".repeat(30), false).scope()).hasSize(20);
        assertThat(StatsQuery.parse("?scope=<script>", false).scope()).as("other characters: no scope").isEmpty();
        assertThat(StatsQuery.parse("?scope=a", false).scope()).as("too short to be read").isEmpty();
    }
}
